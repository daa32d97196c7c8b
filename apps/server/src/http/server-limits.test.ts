import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeOf, listenOnLoopback, parseAnswer, rawClient } from '../testing/raw-http';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Answers given before any route or hook runs: by Node's HTTP parser (malformed, too long, too
 * slow) and by the router (a URL it cannot read). Each is the envelope with the security headers,
 * like every other answer.
 */

const headersTimeoutMs = 600;

const errorLines: string[] = [];
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({
    deps: {
      logger: pino(
        { level: 'error' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            errorLines.push(chunk.toString());
            done();
          },
        }),
      ),
      serverLimits: { headersTimeoutMs, timeoutCheckMs: 100 },
    },
  });
  port = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await t.cleanup();
  expect(errorLines).toEqual([]);
});

function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toContain("default-src 'self'");
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
}

describe("requests Node's parser refuses", () => {
  it('a malformed request: 400, the envelope, then the connection closes', async () => {
    const answer = parseAnswer(await rawClient(port, 'HELLO THERE\r\n\r\n').closed);
    expect(answer.status).toBe(400);
    expect(envelopeOf(answer)).toEqual({
      code: -1,
      msg: '无法解析的 HTTP 请求',
      data: { error: 'http.malformed', params: {} },
    });
    expectSecurityHeaders(answer.headers);
  });

  it('a 100 KB path: 431 with the envelope', async () => {
    const client = rawClient(port, `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    const answer = parseAnswer(await client.closed);
    expect(answer.status).toBe(431);
    expect(envelopeOf(answer).code).toBe(-1);
    expectSecurityHeaders(answer.headers);
  });

  it('headers that never finish: 408 with the envelope once their time is up', async () => {
    const started = performance.now();
    const client = rawClient(port, 'POST /api/app/config HTTP/1.1\r\nHost: a\r\n');
    const answer = parseAnswer(await client.closed);
    expect(answer.status).toBe(408);
    expect(envelopeOf(answer).code).toBe(-1);
    expectSecurityHeaders(answer.headers);
    expect(performance.now() - started).toBeGreaterThanOrEqual(headersTimeoutMs);
  });
});

describe('URLs the router cannot read', () => {
  const post = (url: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });

  it('bad percent-encoding: the envelope with the security headers', async () => {
    const res = await post('/api/%zz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: -1, data: null });
    expectSecurityHeaders(res.headers);
    expect(res.headers['x-request-id']).toBeTruthy();

    const page = await t.app.inject({ method: 'GET', url: '/assets/%zz.js' });
    expect(page.statusCode).toBe(400);
    expect(page.json()).toMatchObject({ code: -1 });
    expectSecurityHeaders(page.headers);
  });

  it('a bad URL parameter: the envelope with the security headers', async () => {
    const res = await post('/member_data/file_manager/%E0%A4%A');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: -1, data: null });
    expectSecurityHeaders(res.headers);
  });

  it('a URL parameter over the length limit: the envelope with the security headers', async () => {
    const res = await post(`/member_data/file_manager/${'a'.repeat(500)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: -1, data: null });
    expectSecurityHeaders(res.headers);
  });

  it('an 8 KB path, over a real socket: 404 with the envelope', async () => {
    const client = rawClient(
      port,
      `GET /${'a'.repeat(8_000)} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`,
    );
    const answer = parseAnswer(await client.closed);
    expect(answer.status).toBe(404);
    expect(envelopeOf(answer).code).toBe(-1);
    expectSecurityHeaders(answer.headers);
  });
});
