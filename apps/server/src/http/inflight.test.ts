import { Code } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileClient, multipartBody } from '../features/library/library.testing';
import { envelopeOf, listenOnLoopback, parseAnswer, rawClient } from '../testing/raw-http';
import { authHeaders, createTestApp, type TestApp } from '../testing/test-app';
import { addressKey } from './client-address';

/** Short enough for a test, long against a loaded machine's scheduling hiccups. */
const bodyIdleMs = 800;
const bodiesPerAddress = 3;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({
    // Lets each test pick its client address with X-Forwarded-For.
    env: { TRUST_PROXY: 'true' },
    // The calls here are small JSON bodies: both budgets are the same small number.
    deps: {
      serverLimits: { bodyIdleMs, bodiesPerAddress, smallBodiesPerAddress: bodiesPerAddress },
    },
  });
  port = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await t.cleanup();
});

let addresses = 0;
/** A client address of its own, so no test meets another's bodies in flight. */
const newAddress = () => `192.0.2.${++addresses}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Time for the server to take in what was just sent; the bounds it checks act in under 1 ms. */
const settle = () => sleep(200);

function jsonHead(path: string, length: number, address: string, headers: string[] = []): string {
  return [
    `POST ${path} HTTP/1.1`,
    'Host: atrium.test',
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    `X-Forwarded-For: ${address}`,
    ...headers,
    '',
    '',
  ].join('\r\n');
}

/** `POST /api/app/config` whose body `{}` arrives after the headers, when `finish` is called. */
function twoStepConfigCall(address: string) {
  const client = rawClient(port, jsonHead('/api/app/config', 2, address));
  return { client, finish: () => client.write('{}') };
}

function expectSecurityHeaders(headers: Record<string, string>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toContain("default-src 'self'");
}

describe('a body that stops arriving', () => {
  it('is cut within its idle time, with a 408 envelope, while other clients are served', async () => {
    const address = newAddress();
    const started = performance.now();
    const stalled = rawClient(port, `${jsonHead('/api/auth/login', 100, address)}{"user`);

    const other = await fetch(`http://127.0.0.1:${port}/api/app/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: '{}',
    });
    expect(await other.json()).toMatchObject({ code: 0 });
    expect(stalled.socket.destroyed).toBe(false);

    const answer = parseAnswer(await stalled.closed);
    const after = performance.now() - started;
    expect(answer.status).toBe(408);
    expect(envelopeOf(answer)).toEqual({
      code: -1,
      msg: '请求内容中断，没有继续传来',
      data: { error: 'http.bodyStalled', params: {} },
    });
    expectSecurityHeaders(answer.headers);
    expect(after).toBeGreaterThanOrEqual(bodyIdleMs);
    expect(after).toBeLessThan(bodyIdleMs + 10_000);
  });

  it('is not cut while bytes keep coming, however long the whole body takes', async () => {
    const body = JSON.stringify({ username: 'nobody-at-all', password: 'wrong password' });
    const client = rawClient(port, jsonHead('/api/auth/login', body.length, newAddress()));
    const deadline = performance.now() + 3 * bodyIdleMs;
    let sent = 0;
    while (sent < body.length) {
      // A byte every tenth of the idle time, the last one only after three idle times in all.
      const next = performance.now() < deadline ? sent + 1 : body.length;
      client.write(body.slice(sent, next));
      sent = next;
      await sleep(bodyIdleMs / 10);
    }
    const answer = await client.answered();
    expect(answer.status).toBe(200);
    expect(envelopeOf(answer).data).not.toMatchObject({ error: 'http.bodyStalled' });
    client.socket.destroy();
  });

  it('cuts an upload chunk that stalls; the chunk sent again is accepted', async () => {
    const { token } = await t.loginMember();
    const member = new FileClient(t, { area: 'member', token }, 'file');
    const chunkSize = 5 * 1024 * 1024;
    const file = { name: 'notes.txt', data: Buffer.alloc(chunkSize + 1000, 'note ') };
    expect((await member.init(file)).code).toBe(0);

    const fields = {
      id: 'WU_FILE_0',
      name: file.name,
      type: 'text/plain',
      lastModifiedDate: new Date(0).toString(),
      size: String(file.data.length),
      chunks: '2',
      chunk: '0',
    };
    const { payload, contentType } = multipartBody(fields, file.data.subarray(0, chunkSize));
    const head = [
      'POST /member_data/file_manager/file HTTP/1.1',
      'Host: atrium.test',
      `Content-Type: ${contentType}`,
      `Content-Length: ${payload.length}`,
      `X-Forwarded-For: ${newAddress()}`,
      ...Object.entries(authHeaders('member', token)).map(([name, value]) => `${name}: ${value}`),
      '',
      '',
    ].join('\r\n');
    const stalled = rawClient(port, head);
    stalled.write(payload.subarray(0, 1024 * 1024));

    const answer = parseAnswer(await stalled.closed);
    expect(answer.status).toBe(408);
    expect(envelopeOf(answer).data).toMatchObject({ error: 'http.bodyStalled' });

    const again = await member.sendChunk(file, 0, { chunkSize });
    expect(again.json).toMatchObject({ code: 0 });
  });
});

describe('bodies in flight from one address', () => {
  it("counts small and large bodies apart: large ones filling their budget don't hold up a page's small calls", async () => {
    const address = newAddress();
    const { token } = await t.loginAdmin();
    const auth = Object.entries(authHeaders('admin', token)).map(([k, v]) => `${k}: ${v}`);
    // A signed-in route (1 MiB limit); none of these bodies ever completes, so nothing runs.
    const largeHead = () => jsonHead('/admin/api/auth/logout', 100_000, address, auth);
    const large = Array.from({ length: bodiesPerAddress }, () =>
      rawClient(port, `${largeHead()}{"pad":"`),
    );
    await settle();
    const refused = rawClient(port, `${largeHead()}{`);
    expect(envelopeOf(parseAnswer(await refused.closed))).toMatchObject({
      code: Code.TooManyRequests,
    });
    const small = twoStepConfigCall(address);
    await settle();
    small.finish();
    expect(envelopeOf(await small.client.answered()).code).toBe(0);
    for (const client of [...large, small.client]) client.socket.destroy();
  });

  it('past the bound, the next is refused at once with 1004 and its connection closed', async () => {
    const address = newAddress();
    const held = Array.from({ length: bodiesPerAddress }, () => twoStepConfigCall(address));
    await settle();

    const refused = rawClient(port, `${jsonHead('/api/app/config', 2, address)}{`);
    const text = await refused.closed;
    const answer = parseAnswer(text);
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expect(envelopeOf(answer)).toEqual({
      code: Code.TooManyRequests,
      msg: '进行中的请求过多，请稍后再试',
      data: { error: 'limits.tooManyInProgress', params: {} },
    });
    expectSecurityHeaders(answer.headers);
    expect(held.every(({ client }) => !client.socket.destroyed)).toBe(true);

    // Another address is not held up by this one's bodies.
    const elsewhere = twoStepConfigCall(newAddress());
    await settle();
    elsewhere.finish();
    expect(envelopeOf(await elsewhere.client.answered()).code).toBe(0);

    // The held bodies finish: each is answered, and their address may send again.
    for (const { finish } of held) finish();
    for (const { client } of held) expect(envelopeOf(await client.answered()).code).toBe(0);
    const next = twoStepConfigCall(address);
    await settle();
    next.finish();
    expect(envelopeOf(await next.client.answered()).code).toBe(0);

    for (const { client } of [...held, elsewhere, next]) client.socket.destroy();
  });

  it('a client that goes away frees its place', async () => {
    const address = newAddress();
    const held = Array.from({ length: bodiesPerAddress }, () => twoStepConfigCall(address));
    await settle();
    const [gone] = held;
    gone?.client.socket.destroy();
    await settle();

    const next = twoStepConfigCall(address);
    await settle();
    next.finish();
    expect(envelopeOf(await next.client.answered()).code).toBe(0);
    for (const { client } of [...held, next]) client.socket.destroy();
  });

  it('does not count a small body that arrives with its headers', async () => {
    const address = newAddress();
    const held = Array.from({ length: bodiesPerAddress }, () => twoStepConfigCall(address));
    await settle();
    const whole = rawClient(port, `${jsonHead('/api/app/config', 2, address)}{}`);
    expect(envelopeOf(await whole.answered()).code).toBe(0);
    whole.socket.destroy();
    for (const { client } of held) client.socket.destroy();
  });
});

describe('an upload chunk of a caller not signed in', () => {
  it('is refused from its headers, before any of its body is sent', async () => {
    const client = rawClient(
      port,
      [
        'POST /member_data/file_manager/image HTTP/1.1',
        'Host: atrium.test',
        'Content-Type: multipart/form-data; boundary=x',
        `Content-Length: ${5 * 1024 * 1024}`,
        '',
        '',
      ].join('\r\n'),
    );
    const answer = await client.answered();
    expect(envelopeOf(answer).code).toBe(Code.NotLoggedIn);
    client.socket.destroy();
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses and groups IPv6 ones by their /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
  });
});
