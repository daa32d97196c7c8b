import { Code } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileClient, textFile, useUploadConfig } from '../features/library/library.testing';
import { newConversation, seedRoom, send } from '../features/chat/chat.testing';
import { UnavailableError } from '../http/unavailable';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fake-openai';
import { createTestApp, type TestApp } from '../testing/test-app';

const token = 'metrics-token-0123456789abcdef';

/** The value of one sample (`name{labels} value`), or undefined when it is not there. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('the metrics endpoint without ATRIUM_METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('answers 404, as an address that does not exist, whatever token is offered', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('the metrics endpoint with ATRIUM_METRICS_TOKEN', () => {
  let t: TestApp;
  let fake: FakeOpenAi;
  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await createTestApp({
      env: { ATRIUM_METRICS_TOKEN: token },
      // An outage as an adapter reports it, through the real error handler.
      setup: (app) =>
        app.post('/test/storage-outage', () => {
          throw new UnavailableError('storage', new Error('connect ECONNREFUSED'));
        }),
    });
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  it('refuses a scrape without a token (401) and with a wrong one (403)', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.body).not.toContain('http_request_duration_seconds');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token.slice(0, -1)}x` },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).not.toContain('http_request_duration_seconds');
  });

  it('times requests by route pattern, method and status class, never by raw URL', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.app.inject({ method: 'GET', url: '/no-such-page/12345' });
    await t.post('/api/app/config', {});
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body;
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '/healthz',
        method: 'GET',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '/api/app/config',
        method: 'POST',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '<unmatched>',
        status_class: '4xx',
      }),
    ).toBe(1);
    expect(text).not.toContain('no-such-page');
    // prom-client's process metrics come along.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // The database answers; SQLite has no pool to report.
    expect(sample(text, 'atrium_dependency_up', { dependency: 'database' })).toBe(1);
    expect(sample(text, 'atrium_dependency_up', { dependency: 'storage' })).toBe(1);
    expect(sample(text, 'atrium_db_pool_connections', { state: 'total' })).toBeUndefined();
    expect(sample(text, 'atrium_db_pool_waiting')).toBeUndefined();
  });

  it('counts upload chunks and their bytes as they are stored', async () => {
    const before = await scrape();
    await useUploadConfig(t);
    const { token: memberToken } = await t.loginMember();
    const client = new FileClient(t, { area: 'member', token: memberToken }, 'file');
    const data = textFile(2500);
    const done = await client.upload({ name: 'notes.txt', data });
    expect(done.code).toBe(0);
    const after = await scrape();
    const chunks = (name: string, text: string) => sample(text, name) ?? 0;
    expect(chunks('atrium_upload_chunks_total', after)).toBe(
      chunks('atrium_upload_chunks_total', before) + 3,
    );
    expect(chunks('atrium_upload_bytes_total', after)).toBe(
      chunks('atrium_upload_bytes_total', before) + data.length,
    );
    expect(
      sample(after, 'http_request_duration_seconds_count', {
        route: '/member_data/file_manager/:category',
        method: 'POST',
      }),
    ).toBeGreaterThanOrEqual(4);
    expect(after).not.toContain('file_manager/file"');
  });

  it('counts calls refused for an outage by kind', async () => {
    const before = await scrape();
    expect(sample(before, 'atrium_outage_refusals_total', { outage: 'storage' })).toBe(0);
    expect(sample(before, 'atrium_outage_refusals_total', { outage: 'diskFull' })).toBe(0);
    const { json } = await t.post('/test/storage-outage', {});
    expect(json.code).toBe(Code.Unavailable);
    const after = await scrape();
    expect(sample(after, 'atrium_outage_refusals_total', { outage: 'storage' })).toBe(1);
    expect(sample(after, 'atrium_outage_refusals_total', { outage: 'database' })).toBe(0);
  });

  it('shows answers being written and counts their tokens once they end', async () => {
    const { room } = await seedRoom(t, fake);
    const { token: memberToken } = await t.loginMember();
    const conversation = await newConversation(t, memberToken, room.id);
    const before = await scrape();
    expect(sample(before, 'atrium_chat_answers_active')).toBe(0);
    expect(sample(before, 'atrium_chat_stream_watchers')).toBe(0);
    const sent = await send(t, memberToken, conversation.id, 'count these words please');
    expect(sent.json.code).toBe(0);
    const completion = (text: string) =>
      sample(text, 'atrium_answer_tokens_total', { kind: 'completion' }) ?? 0;
    const deadline = Date.now() + 5000;
    let after = await scrape();
    while (completion(after) === completion(before) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await scrape();
    }
    expect(completion(after)).toBeGreaterThan(completion(before));
    expect(sample(after, 'atrium_answer_tokens_total', { kind: 'prompt' })).toBeGreaterThan(0);
    expect(sample(after, 'atrium_chat_answers_active')).toBe(0);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the metrics on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db: 'postgres', env: { ATRIUM_METRICS_TOKEN: token } });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("shows the pool's connections and waiting queries", async () => {
    await t.post('/api/app/config', {});
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    const total = sample(res.body, 'atrium_db_pool_connections', { state: 'total' });
    const idle = sample(res.body, 'atrium_db_pool_connections', { state: 'idle' });
    expect(total).toBeGreaterThanOrEqual(1);
    expect(idle).toBeLessThanOrEqual(total ?? 0);
    expect(sample(res.body, 'atrium_db_pool_waiting')).toBe(0);
    expect(sample(res.body, 'atrium_dependency_up', { dependency: 'database' })).toBe(1);
  });

  it('is ready with the database answering a select 1', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready', checks: { database: { ok: true } } });
  });
});
