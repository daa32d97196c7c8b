import { ok } from '@atrium/shared';
import { defineCalls } from '@atrium/shared/contract/call';
import {
  bigIntField,
  decimalField,
  intField,
  intOrDigitsField,
  recordId,
  recordIdOrZero,
  textField,
} from '@atrium/shared/contract/fields';
import { fileManagerRequest } from '@atrium/shared/contract/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  expectAnswer,
  malformedValues,
  namesField,
  payloadOf,
  probes,
  refusedField,
  targetsOf,
  type Target,
} from '../testing/malformed';
import { authHeaders, createTestApp, type TestApp } from '../testing/test-app';
import { route, type RouteRecord } from './route';

/**
 * Malformed values in every field (issue 30: the matrix once, against the generic code). Every
 * route's schema is walked value by value without a request: it refuses what no column can hold,
 * and the refusal names the field by the very function the error handler answers with. Then
 * every value in every field goes through the route code (body parser, size limit, validation,
 * error handler) on one route of each body shape the contract uses. routes.test.ts sends each
 * real route one refused body, and every body its schema takes, on each test database.
 */

/** Where the walk sends from, so it meets no other test's limits. */
const WALK_ADDRESS = '198.51.100.9';

/** One route of each body shape: flat fields of every kind, lists, nesting, a union by action. */
const shapes = {
  admin: defineCalls('admin', {
    'test/shape_flat': {
      rule: 'test/shape',
      request: z.strictObject({
        name: textField().max(100),
        count: intField(0, 1000),
        size: bigIntField(0),
        ratio: decimalField(0, 2),
        on: z.boolean(),
        kind: z.enum(['a', 'b']),
      }),
      answer: z.null(),
    },
  }),
  member: defineCalls('member', {
    'test/shape_lists': {
      request: z.strictObject({
        ids: z.array(recordId).max(100),
        names: z.array(textField().max(50)).optional(),
      }),
      answer: z.null(),
    },
    'test/shape_nested': {
      public: true,
      request: z.strictObject({
        page: z.strictObject({ current: intOrDigitsField(1, 1000), size: intField(1, 100) }),
        filter: z
          .strictObject({
            text: textField().max(100).nullable(),
            tags: z.array(z.strictObject({ id: recordIdOrZero, label: textField().max(20) })),
          })
          .optional(),
      }),
      answer: z.null(),
    },
    // The file manager's body: a union told apart by `action`, at a URL with a parameter.
    'test/shape_actions': { request: fileManagerRequest, answer: z.null() },
  }),
};

const concrete = (path: string) => path.replace(/:(\w+)/g, 'image');

let t: TestApp;
let tokens: { admin: string; member: string };

beforeAll(async () => {
  t = await createTestApp({
    setup: (app) => {
      route(app, shapes.admin['test/shape_flat'], async () => ok(null));
      route(app, shapes.member['test/shape_lists'], async () => ok(null));
      route(app, shapes.member['test/shape_nested'], async () => ok(null));
      route(app, shapes.member['test/shape_actions'], async () => ok(null), {
        url: '/api/test/shape_actions/:category',
        params: z.object({ category: z.string() }),
      });
    },
  });
  tokens = {
    admin: (await t.loginAdmin({ rules: ['test/shape'] })).token,
    member: (await t.loginMember()).token,
  };
});
afterAll(async () => {
  await t.cleanup();
});

/** As long as the whole matrix once took per value: a busy machine reads 20,000-item arrays slowly. */
const perValueMs = 120_000;

describe("every route's schema, every malformed value in every field", () => {
  let targets: Target[];

  beforeAll(() => {
    targets = targetsOf(t.app.routeRegistry);
  });

  it('walks most routes, each shape of their bodies', () => {
    expect(targets.length).toBeGreaterThan(t.app.routeRegistry.length / 2);
  });

  it.each(malformedValues)(
    '$name: refused where it must be, naming the field as the error handler does',
    (bad) => {
      let refusals = 0;
      for (const target of targets) {
        for (const probe of probes(target, [bad])) {
          const { where } = probe;
          if (bad.refused)
            expect.soft(probe.refused, `${where}: the schema takes ${bad.name}`).toBe(true);
          if (!probe.refused) continue;
          expect.soft(refusedField(probe) ?? '(none)', where).toMatch(namesField(probe.path));
          refusals += 1;
        }
      }
      expect(refusals).toBeGreaterThan(0);
    },
    perValueMs,
  );
});

describe('through the route code, on a route of each body shape', () => {
  let targets: Target[];

  beforeAll(() => {
    targets = targetsOf(t.app.routeRegistry.filter((r) => r.path.includes('/test/shape_')));
  });

  function send(r: RouteRecord, payload: string, signedIn: boolean) {
    const area = r.area === 'admin' ? 'admin' : 'member';
    return t.app.inject({
      method: 'POST',
      url: concrete(r.path),
      remoteAddress: WALK_ADDRESS,
      headers: {
        'content-type': 'application/json',
        ...(signedIn ? authHeaders(area, tokens[area]) : {}),
      },
      payload,
    });
  }

  it('has each shape, the file manager with one target per action', () => {
    expect(new Set(targets.map((x) => x.route.path)).size).toBe(4);
    expect(targets.length).toBeGreaterThan(10);
  });

  it.each(malformedValues)(
    '$name: code -1 naming the field, or handled; never a 5xx',
    async (bad) => {
      let walked = 0;
      for (const target of targets) {
        for (const probe of probes(target, [bad])) {
          // Signed in, and anonymous too where the route is public: both answer the same way.
          for (const signedIn of target.route.public ? [true, false] : [true]) {
            const res = await send(target.route, payloadOf(probe), signedIn);
            expectAnswer(res, probe.refused, probe.path, probe.where);
            walked += 1;
          }
        }
      }
      expect(walked).toBeGreaterThan(targets.length);
    },
  );
});
