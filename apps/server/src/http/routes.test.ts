import { Code } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { authHeaders, createTestApp, type TestApp } from '../testing/test-app';
import type { RouteRecord } from './route';
import { route } from './route';

/**
 * Walks every route the app registers, so a route added by any feature is covered without
 * touching this file, except to list it here when it is deliberately open.
 */

/** Admin routes callable without signing in. */
const PUBLIC_ADMIN_ROUTES = [
  '/admin/api/auth/login',
  '/admin/api/app/config',
  '/admin/api/captcha/image',
];
/** Admin routes that need a signed-in admin but no rule. */
const RULELESS_ADMIN_ROUTES = ['/admin/api/auth/logout'];
/** Member-area routes callable without signing in. */
const PUBLIC_MEMBER_ROUTES = [
  '/api/auth/login',
  '/api/app/config',
  '/api/captcha/image',
  '/api/verify/send',
  '/api/auth/register',
  '/api/auth/password_reset',
  // The room list is what visitors see on the home page (SPEC 7.4).
  '/api/aigc/chat_room/all',
  '/api/aigc/chat_room/get',
];

let t: TestApp;
let founderToken: string;
let memberToken: string;
let routes: RouteRecord[];

beforeAll(async () => {
  t = await createTestApp({
    setup: (app) => {
      // One guarded route of each kind, so the walks below exercise the guard even before the
      // features that bring real ones exist.
      route(app, {
        area: 'admin',
        rule: 'test/walk',
        path: '/admin/api/test/walk',
        body: z.strictObject({ name: z.string(), count: z.number().int() }),
        handler: async () => ({ code: 0, msg: '', data: null }),
      });
      route(app, {
        area: 'member',
        path: '/api/test/walk',
        body: z.strictObject({ ids: z.array(z.number()) }),
        handler: async () => ({ code: 0, msg: '', data: null }),
      });
    },
  });
  founderToken = (await t.loginAdmin()).token;
  memberToken = (await t.loginMember()).token;
  routes = t.app.routeRegistry;
});
afterAll(async () => {
  await t.cleanup();
});

const concrete = (path: string) => path.replace(/:(\w+)/g, 'image');

/** A body with every top-level field set to a value of the wrong type. */
function wrongTypes(schema: ZodType): Record<string, unknown> {
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, ZodType>) : {};
  const body: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    body[key] = [{ wrong: true }, 'wrong', 12345, [1, 2]].find((v) => !field.safeParse(v).success);
  }
  return body;
}

function callerFor(r: RouteRecord): { area: 'admin' | 'member'; token: string } | undefined {
  if (r.area === 'admin') return { area: 'admin', token: founderToken };
  if (r.area === 'member' || r.area === 'public') return { area: 'member', token: memberToken };
  return undefined;
}

async function send(
  r: RouteRecord,
  payload: string,
  as?: { area: 'admin' | 'member'; token: string },
) {
  return t.app.inject({
    method: 'POST',
    url: concrete(r.path),
    headers: { 'content-type': 'application/json', ...(as ? authHeaders(as.area, as.token) : {}) },
    payload,
  });
}

describe('every route refuses bad bodies with code -1, never a crash', () => {
  it('has routes to walk', () => {
    expect(routes.length).toBeGreaterThanOrEqual(6);
  });

  it.each([
    ['malformed JSON', () => '{"a": '],
    ['a JSON array', () => '[]'],
    ['a JSON string', () => '"text"'],
    ['an unknown field', () => '{"unexpected":1}'],
  ])('%s', async (_name, payload) => {
    for (const r of routes) {
      const res = await send(r, payload(), callerFor(r));
      expect.soft(res.statusCode, r.path).toBe(200);
      expect.soft(res.json<{ code: number }>().code, r.path).toBe(Code.Failure);
    }
  });

  it('fields of the wrong type', async () => {
    for (const r of routes) {
      const body = wrongTypes(r.body);
      if (Object.keys(body).length === 0 || r.body.safeParse(body).success) continue;
      const res = await send(r, JSON.stringify(body), callerFor(r));
      expect.soft(res.statusCode, r.path).toBe(200);
      expect
        .soft(res.json(), r.path)
        .toMatchObject({ code: Code.Failure, msg: expect.stringMatching(/^\w[\w.]*: /) });
    }
  });

  it('anonymous callers of guarded routes hear "not logged in" first', async () => {
    for (const r of routes.filter((x) => !x.public)) {
      for (const payload of ['{"a": ', '[]', '{"unexpected":1}']) {
        const res = await send(r, payload);
        expect.soft(res.statusCode, r.path).toBe(200);
        expect
          .soft(res.json(), r.path)
          .toEqual({ code: Code.NotLoggedIn, msg: 'not logined', data: null });
      }
    }
  });
});

describe('admin routes', () => {
  const adminRoutes = () => routes.filter((r) => r.area === 'admin');

  it('each declares a rule; only the listed ones are public or rule-free', () => {
    expect(
      adminRoutes()
        .filter((r) => r.public)
        .map((r) => r.path)
        .sort(),
    ).toEqual([...PUBLIC_ADMIN_ROUTES].sort());
    expect(
      adminRoutes()
        .filter((r) => r.rule === null)
        .map((r) => r.path)
        .sort(),
    ).toEqual([...RULELESS_ADMIN_ROUTES].sort());
    for (const r of adminRoutes().filter((x) => !x.public && x.rule !== null)) {
      expect.soft(typeof r.rule === 'string' && r.rule.length > 0, r.path).toBe(true);
    }
  });

  it('anonymous => 1000 on every non-public admin route', async () => {
    for (const r of adminRoutes().filter((x) => !PUBLIC_ADMIN_ROUTES.includes(x.path))) {
      const res = await send(r, JSON.stringify({}));
      expect
        .soft(res.json(), r.path)
        .toEqual({ code: Code.NotLoggedIn, msg: 'not logined', data: null });
    }
  });

  it('a member token does not open admin routes', async () => {
    for (const r of adminRoutes().filter((x) => !x.public)) {
      const res = await send(r, JSON.stringify({}), { area: 'admin', token: memberToken });
      expect.soft(res.json<{ code: number }>().code, r.path).toBe(Code.NotLoggedIn);
    }
  });

  it('a signed-in admin without the rule => 1003 on every ruled route', async () => {
    const { token } = await t.loginAdmin({ rules: ['nothing/matches/this'] });
    const ruled = adminRoutes().filter(
      (x) => !PUBLIC_ADMIN_ROUTES.includes(x.path) && !RULELESS_ADMIN_ROUTES.includes(x.path),
    );
    expect(ruled.length).toBeGreaterThan(0);
    for (const r of ruled) {
      const res = await send(r, JSON.stringify({}), { area: 'admin', token });
      expect
        .soft(res.json(), r.path)
        .toEqual({ code: Code.NoPermission, msg: 'No permission', data: null });
    }
  });

  it('an admin holding exactly the rule gets past the guard', async () => {
    for (const r of adminRoutes().filter((x) => typeof x.rule === 'string')) {
      const { token } = await t.loginAdmin({ rules: [String(r.rule)] });
      const res = await send(r, '{"unexpected":1}', { area: 'admin', token });
      expect.soft(res.json<{ code: number }>().code, r.path).toBe(Code.Failure);
    }
  });
});

describe('member routes', () => {
  it('only the listed ones are public', () => {
    const open = routes.filter((r) => r.area !== 'admin' && r.public).map((r) => r.path);
    expect(open.sort()).toEqual([...PUBLIC_MEMBER_ROUTES].sort());
  });

  it('an admin token does not open member routes', async () => {
    for (const r of routes.filter((x) => x.area === 'member')) {
      const res = await send(r, JSON.stringify({}), { area: 'member', token: founderToken });
      expect.soft(res.json<{ code: number }>().code, r.path).toBe(Code.NotLoggedIn);
    }
  });
});
