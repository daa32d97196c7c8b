import type { AreaName } from '@atrium/shared/areas';
import { randomBytes } from 'node:crypto';
import { Code, ok } from '@atrium/shared';
import { defineCalls } from '@atrium/shared/contract/call';
import { chunkFields } from '@atrium/shared/contract/files';
import { intField, recordId, textField } from '@atrium/shared/contract/fields';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import {
  managerUrl,
  md5Of,
  multipartBody,
  useUploadConfig,
} from '../features/library/library.testing';
import { testDbKinds } from '../testing/db';
import {
  expectAnswer,
  namesField,
  firstRefused,
  payloadOf,
  probes,
  signInForSome,
  targetsOf,
  type Target,
} from '../testing/malformed';
import { authHeaders, createTestApp, type TestApp } from '../testing/test-app';
import type { RouteRecord } from './route';
import { route } from './route';

/**
 * Walks every route the app registers, so a route added by any feature is covered without
 * touching this file, except to list it here when it is deliberately open. Every walk runs on
 * each test database: PostgreSQL refuses values SQLite takes (DESIGN 9).
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
  // A share link opens for visitors when it is public and the site allows it (issue 18).
  '/api/aigc/share/view',
];

/** Where the malformed-input walk sends from, so its sign-in attempts meet no test's limits. */
const WALK_ADDRESS = '198.51.100.7';

const walkCalls = {
  admin: defineCalls('admin', {
    'test/walk': {
      rule: 'test/walk',
      request: z.strictObject({ name: textField(), count: intField(0, 1000) }),
      answer: z.null(),
    },
  }),
  member: defineCalls('member', {
    'test/walk': { request: z.strictObject({ ids: z.array(recordId) }), answer: z.null() },
  }),
};

type Caller = { area: AreaName; token: string };

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

describe.each(testDbKinds)('on %s', (kind) => {
  let t: TestApp;
  let founderToken: string;
  let memberToken: string;
  let routes: RouteRecord[];

  beforeAll(async () => {
    t = await createTestApp({
      db: kind,
      setup: (app) => {
        // A guarded route with a rule of its own and one with a list field, which the walks
        // below must exercise whatever the features declare.
        route(app, walkCalls.admin['test/walk'], async () => ok(null));
        route(app, walkCalls.member['test/walk'], async () => ok(null));
      },
    });
    founderToken = (await t.loginAdmin()).token;
    memberToken = (await t.loginMember()).token;
    routes = t.app.routeRegistry;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  function callerFor(
    r: RouteRecord,
    tokens = { admin: founderToken, member: memberToken },
  ): Caller | undefined {
    if (r.area === 'admin') return { area: 'admin', token: tokens.admin };
    if (r.area === 'member' || r.area === 'public') return { area: 'member', token: tokens.member };
    return undefined;
  }

  /**
   * Tokens of a founder and a member of their own, for walks that send bodies the schemas take:
   * a logout among them must not sign out the callers of the other walks.
   */
  async function freshTokens() {
    return { admin: (await t.loginAdmin()).token, member: (await t.loginMember()).token };
  }

  async function send(r: RouteRecord | string, payload: string, as?: Caller) {
    return t.app.inject({
      method: 'POST',
      url: typeof r === 'string' ? r : concrete(r.path),
      remoteAddress: WALK_ADDRESS,
      headers: {
        'content-type': 'application/json',
        ...(as ? authHeaders(as.area, as.token) : {}),
      },
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
        expect.soft(res.json(), r.path).toMatchObject({
          code: Code.Failure,
          data: { error: expect.stringMatching(/^validation\./), field: expect.any(String) },
        });
      }
    });

    it('anonymous callers of guarded routes hear "not logged in" first', async () => {
      for (const r of routes.filter((x) => !x.public)) {
        for (const payload of ['{"a": ', '[]', '{"unexpected":1}', '{"id":"a\\u0000b"}']) {
          const res = await send(r, payload);
          expect.soft(res.statusCode, r.path).toBe(200);
          expect
            .soft(res.json(), r.path)
            .toMatchObject({ code: Code.NotLoggedIn, data: { error: 'http.notLoggedIn' } });
        }
      }
    });
  });

  // Every malformed value in every field of every route's schema, and all of them through the
  // generic route code on a route of each body shape: route-malformed.test.ts. Here each route
  // refuses one through that code, and the values its schema lets through reach its handler.
  describe('malformed values: refused through the route code, the ones a schema takes handled', () => {
    let targets: Target[];

    beforeAll(() => {
      targets = targetsOf(routes);
    });

    /** Signed in as the route needs, and anonymous: public routes answer both the same way. */
    const callersOf = (r: RouteRecord) => (r.public ? [callerFor(r), undefined] : [callerFor(r)]);

    it('walks every route, and a body each schema accepts to start from', () => {
      expect(targets.length).toBeGreaterThanOrEqual(routes.length);
      for (const target of targets) {
        expect.soft(target.route.body.safeParse(target.base).success, target.label).toBe(true);
      }
    });

    it('a body the schema accepts is answered without a 5xx', async () => {
      const tokens = await freshTokens();
      for (const target of targets) {
        for (const as of [callerFor(target.route, tokens), undefined]) {
          const res = await send(target.route, JSON.stringify(target.base), as);
          expect.soft(res.statusCode, target.label).toBe(200);
        }
      }
    });

    it('each route refuses a malformed value with code -1 naming the field', async () => {
      let walked = 0;
      for (const target of targets) {
        const probe = firstRefused(target);
        // A body without fields has nothing to put a value in ("an unknown field" covers it).
        if (!probe) continue;
        for (const as of callersOf(target.route)) {
          expectAnswer(
            await send(target.route, payloadOf(probe), as),
            true,
            probe.path,
            probe.where,
          );
          walked += 1;
        }
      }
      expect(walked).toBeGreaterThanOrEqual(routes.length);
    });

    it('each malformed value a schema takes reaches its handler and is handled, never a 5xx', async () => {
      let walked = 0;
      for (const target of targets) {
        for (const probe of probes(target)) {
          if (probe.refused) continue;
          for (const as of callersOf(target.route)) {
            const signIn = as === undefined && signInForSome.has(target.route.path);
            const res = await send(target.route, payloadOf(probe), as);
            expectAnswer(res, false, probe.path, probe.where, signIn);
            walked += 1;
          }
        }
      }
      console.info(`[routes] ${walked} malformed bodies that schemas take, sent to their handlers`);
      expect(walked).toBeGreaterThan(0);
    }, 120_000);

    it('a query string is ignored, whatever it holds', async () => {
      const tokens = await freshTokens();
      for (const target of targets) {
        const url = `${concrete(target.route.path)}?id=2147483648&name=a%00b&x=%ED%A0%80`;
        const res = await send(url, JSON.stringify(target.base), callerFor(target.route, tokens));
        expect.soft(res.statusCode, target.label).toBe(200);
      }
    });

    it('a session keeps a user agent with NUL and a lone surrogate without failing the sign-in', async () => {
      const { admin, password } = await t.createAdmin();
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/api/auth/login',
        remoteAddress: '198.51.100.8',
        headers: { 'content-type': 'application/json', 'user-agent': 'walk\u0000agent\ud800' },
        payload: JSON.stringify({ username: admin.username, password }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ code: Code.Success });
      const session = await t.db
        .selectFrom('sessions')
        .select('userAgent')
        .where('subjectType', '=', 'admin')
        .where('subjectId', '=', admin.id)
        .executeTakeFirst();
      expect(session?.userAgent).toBe('walkagent\ufffd');
    });
  });

  describe('the file manager', () => {
    const libraryRoutes = ['/member_data/file_manager', '/admin/data/file_manager'];

    it.each([
      ['NUL', 'image%00'],
      ['an encoded lone surrogate', '%ED%A0%80'],
      ['a lone percent sign', '%'],
      ['a long name', 'x'.repeat(2000)],
      ['dots', '..%2F..%2Fetc'],
    ])('refuses a library name with %s in the URL', async (_name, category) => {
      for (const base of libraryRoutes) {
        const as = base.startsWith('/admin')
          ? { area: 'admin' as const, token: founderToken }
          : { area: 'member' as const, token: memberToken };
        const res = await send(`${base}/${category}`, '{"action":"config"}', as);
        expect.soft(res.statusCode, base).toBe(200);
        expect.soft(res.json<{ code: number }>().code, base).toBe(Code.Failure);
      }
    });

    describe.each(['member', 'admin'] as const)('a chunk of the %s library', (area) => {
      // Text, as the .txt name says: the first chunk's content is checked against it (issue 28).
      const data = Buffer.from(randomBytes(1024).toString('hex'));
      let as: Caller;
      let fields: Record<string, string>;

      beforeAll(async () => {
        await useUploadConfig(t);
        as = { area, token: area === 'admin' ? founderToken : memberToken };
        const name = `walk-${area}.txt`;
        const init = await t.post(
          managerUrl(area, 'file'),
          { action: 'init', name, size: data.length, md5: md5Of(data) },
          as,
        );
        expect(init.json).toMatchObject({ code: 0, data: { chunks: 2 } });
        fields = { name, size: String(data.length), chunks: '2', chunk: '0', md5: md5Of(data) };
      });

      const sendChunk = (form: Record<string, string>) => {
        const { payload, contentType } = multipartBody(form, data.subarray(0, 1024));
        return t.app.inject({
          method: 'POST',
          url: managerUrl(area, 'file'),
          headers: { ...authHeaders(as.area, as.token), 'content-type': contentType },
          payload,
        });
      };

      it('takes the well-formed chunk', async () => {
        const res = await sendChunk(fields);
        expect(res.json()).toMatchObject({ code: 0, data: { chunkUploaded: 1, chunks: 2 } });
      });

      it.each([
        ['NUL', 'a\u0000b'],
        ['2^31', '2147483648'],
        ['2^53 + 1', '9007199254740993'],
        ['twenty digits', '99999999999999999999'],
        ['-1', '-1'],
        ['1e300', '1e300'],
        ['NaN', 'NaN'],
        ['nothing', ''],
        ['more than a form field holds', 'x'.repeat(5000)],
      ])('refuses %s in each field, naming it', async (_name, value) => {
        const names = [...Object.keys(chunkFields.shape), 'unexpected'];
        for (const name of names) {
          const form = { ...fields, [name]: value };
          const res = await sendChunk(form);
          expect.soft(res.statusCode, name).toBe(200);
          const answer = res.json<{ code: number; msg: string; data: { field?: string } }>();
          if (!chunkFields.safeParse(form).success || value.length > 4096) {
            expect.soft(answer.code, `${name}: ${answer.msg}`).toBe(Code.Failure);
            expect
              .soft(answer.data.field ?? '(none)', `${name}: ${answer.msg}`)
              .toMatch(namesField([name]));
          } else {
            expect
              .soft([Code.Success, Code.Failure], `${name}: ${answer.msg}`)
              .toContain(answer.code);
          }
        }
      });
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
          .toMatchObject({ code: Code.NotLoggedIn, data: { error: 'http.notLoggedIn' } });
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
          .toMatchObject({ code: Code.NoPermission, data: { error: 'http.noPermission' } });
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
});
