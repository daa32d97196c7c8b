import { Writable } from 'node:stream';
import { ok } from '@atrium/shared';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCalls } from '@atrium/shared/contract/call';
import { createTestApp, type TestApp } from '../testing/test-app';
import { route } from './route';

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});

const nested = z.strictObject({
  title: z.string(),
  options: z.strictObject({ size: z.number().int(), tags: z.array(z.string()) }),
});

const testCalls = defineCalls('member', {
  'test/crash': { public: true, request: z.strictObject({}), answer: z.null() },
  'test/nested': { public: true, request: nested, answer: nested },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    deps: { logger: pino({ level: 'error' }, logStream) },
    setup: (app) => {
      route(app, testCalls['test/crash'], () =>
        Promise.reject(new Error('database exploded at /secret/path.ts:12')),
      );
      route(app, testCalls['test/nested'], async ({ body }) => ok(body));
    },
  });
});
afterAll(async () => {
  await t.cleanup();
});

const postRaw = (url: string, payload: string, contentType = 'application/json', lang = 'en') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': contentType, 'accept-language': lang },
    payload,
  });
/** A JSON call asked in `lang` (Accept-Language). */
const ask = async (url: string, body: unknown, lang = 'en') => {
  const res = await postRaw(url, JSON.stringify(body), 'application/json', lang);
  return { res, json: res.json<{ code: number; msg: string; data: unknown }>() };
};
const refused = (msg: string, error: string, params: object = {}, field?: string) => ({
  code: -1,
  msg,
  data: { error, params, ...(field === undefined ? {} : { field }) },
});

describe('request errors answer HTTP 200 with code -1 naming the problem', () => {
  it('malformed JSON, in the language asked for', async () => {
    const res = await postRaw('/api/auth/login', '{"username": "a",');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(refused('Invalid JSON body', 'http.invalidJson'));
    const zh = await postRaw('/api/auth/login', '{"username": "a",', 'application/json', 'zh-CN');
    expect(zh.json()).toEqual(refused('请求内容不是有效的 JSON', 'http.invalidJson'));
  });

  it('an empty JSON body', async () => {
    const res = await postRaw('/api/auth/login', '');
    expect(res.json()).toEqual(refused('Invalid JSON body', 'http.invalidJson'));
  });

  it('a missing field, named in words of the language', async () => {
    const { res, json } = await ask('/api/auth/login', { username: 'a' });
    expect(res.statusCode).toBe(200);
    const params = { field: { key: 'field.password' } };
    expect(json).toEqual(
      refused('Password is required', 'validation.required', params, 'password'),
    );
    const zh = await ask('/api/auth/login', { username: 'a' }, 'zh-CN');
    expect(zh.json).toEqual(refused('请填写密码', 'validation.required', params, 'password'));
  });

  it('a field of the wrong type', async () => {
    const { json } = await ask('/api/auth/login', { username: 42, password: 'x' });
    expect(json).toEqual(
      refused(
        'Username has the wrong type',
        'validation.type',
        { field: { key: 'field.username' } },
        'username',
      ),
    );
  });

  it('an extra field', async () => {
    const { json } = await ask('/api/auth/login', { username: 'a', password: 'b', admin: true });
    expect(json).toEqual(
      refused('Unknown field: admin', 'validation.unknownField', { field: 'admin' }, 'admin'),
    );
  });

  it('a body that is not an object', async () => {
    for (const body of [[], 'text', 7, null]) {
      const { json } = await ask('/api/auth/login', body);
      expect(json).toEqual(
        refused(
          'The request has the wrong type',
          'validation.type',
          { field: { key: 'field.body' } },
          '',
        ),
      );
    }
  });

  it('a schema rule other than type', async () => {
    const { json } = await ask('/api/auth/login', { username: '', password: 'x' }, 'zh-CN');
    expect(json).toMatchObject({
      code: -1,
      msg: '请填写用户名',
      data: { error: 'validation.required', field: 'username' },
    });
  });

  it('nested fields by their dotted path', async () => {
    const wrong = await ask('/api/test/nested', {
      title: 't',
      options: { size: 1.5, tags: [] },
    });
    expect(wrong.json.data).toMatchObject({ field: 'options.size' });
    const item = await ask('/api/test/nested', {
      title: 't',
      options: { size: 1, tags: ['a', 2] },
    });
    // A field the catalogue has no name for is named by its path.
    expect(item.json).toEqual(
      refused(
        'options.tags.1 has the wrong type',
        'validation.type',
        { field: 'options.tags.1' },
        'options.tags.1',
      ),
    );
    expect(item.json.data).toMatchObject({ error: 'validation.type', field: 'options.tags.1' });
    const extra = await ask('/api/test/nested', {
      title: 't',
      options: { size: 1, tags: [], x: 1 },
    });
    expect(extra.json).toEqual(
      refused(
        'Unknown field: options.x',
        'validation.unknownField',
        { field: 'options.x' },
        'options.x',
      ),
    );
    const good = await ask('/api/test/nested', {
      title: 't',
      options: { size: 1, tags: ['a'] },
    });
    expect(good.json).toEqual({
      code: 0,
      msg: '',
      data: { title: 't', options: { size: 1, tags: ['a'] } },
    });
  });

  it('a language the client names wins over Accept-Language; none at all is the site default', async () => {
    const named = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: {
        'content-type': 'application/json',
        'accept-language': 'en-US,en;q=0.9',
        'x-atrium-lang': 'zh-CN',
      },
      payload: '{',
    });
    expect(named.json()).toMatchObject({ msg: '请求内容不是有效的 JSON' });
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(none.json()).toMatchObject({ msg: '请求内容不是有效的 JSON' });
    const ranked = await postRaw(
      '/api/auth/login',
      '{',
      'application/json',
      'fr;q=1, en;q=0.8, zh;q=0.5',
    );
    expect(ranked.json()).toMatchObject({ msg: 'Invalid JSON body' });
  });

  it('a signed-in body over 1 MiB', async () => {
    const member = { area: 'member' as const, token: (await t.loginMember()).token };
    const { res, json } = await t.post(
      '/api/account/profile/save',
      { nickname: 'x'.repeat(1024 * 1024) },
      member,
    );
    expect(res.statusCode).toBe(200);
    expect(json).toMatchObject({ code: -1, data: { error: 'http.bodyTooLarge' } });
  });

  it('a signed-in body just under 1 MiB is read (and then validated)', async () => {
    const member = { area: 'member' as const, token: (await t.loginMember()).token };
    const { json } = await t.post(
      '/api/account/profile/save',
      { nickname: 'x'.repeat(1000 * 1000) },
      member,
    );
    expect(json.data).not.toMatchObject({ error: 'http.bodyTooLarge' });
    expect(json.code).toBe(-1);
  });

  it('an anonymous body over 32 KiB, to a public call or an unknown URL', async () => {
    for (const url of ['/api/auth/login', '/api/no/such/call']) {
      const res = await postRaw(
        url,
        JSON.stringify({ username: 'a', password: 'x'.repeat(32 * 1024) }),
      );
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual(refused('Request body too large', 'http.bodyTooLarge'));
    }
  });

  it('an unsupported content type, including text/plain', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await postRaw('/api/auth/login', 'username=a&password=b', type);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ code: -1, msg: expect.stringMatching(/content type/i) });
    }
  });

  it('a POST without a body counts as an empty object', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/app/config' });
    expect(res.json()).toMatchObject({ code: 0 });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'accept-language': 'en' },
    });
    expect(login.json()).toMatchObject({
      code: -1,
      msg: 'Username is required',
      data: { field: 'username' },
    });
  });
});

describe('unknown routes', () => {
  it('answer HTTP 404', async () => {
    for (const url of ['/api/nope', '/admin/api/nope', '/api/auth/login/x']) {
      const res = await postRaw(url, '{}');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: -1 });
    }
  });

  it('GET of an API address is 404 (every call is a POST)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/login' });
    expect(res.statusCode).toBe(404);
  });
});

describe('a crash', () => {
  it('answers HTTP 500 with a generic message, logs the error with the request id, never a stack', async () => {
    logLines.length = 0;
    const res = await postRaw('/api/test/crash', '{}');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual(refused('Internal server error', 'http.internal'));
    expect(res.body).not.toMatch(/exploded|secret|\.ts|at /);
    const requestId = res.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const logged = logLines.map(
      (l) => JSON.parse(l) as { reqId?: string; err?: { message?: string } },
    );
    expect(logged).toContainEqual(
      expect.objectContaining({
        reqId: requestId,
        err: expect.objectContaining({ message: expect.stringContaining('exploded') }),
      }),
    );
  });
});

describe('every answer', () => {
  it('carries a fresh request id and the security headers', async () => {
    const a = await t.post('/api/app/config');
    const b = await t.post('/api/app/config');
    expect(a.res.headers['x-request-id']).not.toBe(b.res.headers['x-request-id']);
    expect(a.res.headers['x-content-type-options']).toBe('nosniff');
    expect(a.res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});
