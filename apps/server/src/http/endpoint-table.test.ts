import { callUrl, type Call } from '@atrium/shared/contract/call';
import { fileLibraryAddresses, fileManagerRule } from '@atrium/shared/contract/files';
import { adminTable, memberTable } from '@atrium/shared/contract/table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import type { RouteRecord } from './route';

/**
 * The endpoint table (packages/shared/src/contract/table.ts) is the one list of calls (DESIGN 3,
 * 5): a route the server registers without a declaration, or a declaration no route serves,
 * fails here, and so does a route whose access differs from its declaration.
 */

interface Access {
  area: RouteRecord['area'];
  rule: string | null | undefined;
  public: boolean;
}

function declaredAccess(call: Call): Access {
  const isPublic = call.public === true;
  if (call.area === 'admin')
    return { area: 'admin', rule: isPublic ? undefined : (call.rule ?? null), public: isPublic };
  return { area: isPublic ? 'public' : 'member', rule: undefined, public: isPublic };
}

const calls: Call[] = [...Object.values<Call>(adminTable), ...Object.values<Call>(memberTable)];
const declared = new Map<string, Access>([
  ...calls.map((call): [string, Access] => [callUrl(call), declaredAccess(call)]),
  // The file manager (SPEC 7.2, 7.3): each action checks its own right; the route needs View.
  [fileLibraryAddresses.admin, { area: 'admin', rule: fileManagerRule('view'), public: false }],
  [fileLibraryAddresses.member, { area: 'member', rule: undefined, public: false }],
]);

let t: TestApp;
let registered: Map<string, Access>;
beforeAll(async () => {
  t = await createTestApp();
  registered = new Map(
    t.app.routeRegistry.map((r) => [r.path, { area: r.area, rule: r.rule, public: r.public }]),
  );
});
afterAll(async () => {
  await t.cleanup();
});

describe('the endpoint table and the registered routes agree', () => {
  it('declares calls in both areas', () => {
    expect(Object.keys(adminTable).length).toBeGreaterThan(10);
    expect(Object.keys(memberTable).length).toBeGreaterThan(10);
  });

  it('every POST route the server serves is declared', () => {
    const undeclared = t.app.servedRoutes
      .filter((r) => r.method === 'POST' && !declared.has(r.url))
      .map((r) => r.url);
    expect(undeclared).toEqual([]);
  });

  it('every route is registered through its declaration', () => {
    const undeclared = [...registered.keys()].filter((url) => !declared.has(url));
    expect(undeclared).toEqual([]);
  });

  it('every declaration is served', () => {
    const unserved = [...declared.keys()].filter((url) => !registered.has(url));
    expect(unserved).toEqual([]);
  });

  it('each route guards what its declaration says', () => {
    for (const [url, access] of registered) {
      if (declared.has(url)) expect.soft(access, url).toEqual(declared.get(url));
    }
  });
});
