import { Code } from '@atrium/shared';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileClient, textFile, useUploadConfig } from '../features/library/library.testing';
import { startS3rver, type RunningS3 } from '../storage/s3rver.testing';
import { startFaultProxy, type FaultProxy } from '../testing/fault-proxy';
import { createTestApp, type TestApp } from '../testing/test-app';
import type { ReadinessReport } from './readiness';

const readyTimeoutMs = 500;
const token = 'ops-s3-metrics-token-0123456789';

/** S3 storage behind a proxy that can cut it off: readiness names it, refusals are counted. */
describe('readiness and metrics with S3 storage', () => {
  let s3: RunningS3;
  let proxy: FaultProxy;
  let t: TestApp;

  beforeAll(async () => {
    s3 = await startS3rver();
    const front = new URL(s3.env.S3_ENDPOINT ?? '');
    proxy = await startFaultProxy({ host: front.hostname, port: Number(front.port) });
    t = await createTestApp({
      env: {
        ...s3.env,
        S3_ENDPOINT: `http://${proxy.address}`,
        ATRIUM_READY_TIMEOUT_MS: String(readyTimeoutMs),
        ATRIUM_METRICS_TOKEN: token,
      },
    });
  });
  afterEach(() => {
    proxy.heal();
    proxy.reset();
  });
  afterAll(async () => {
    await t.cleanup();
    await proxy.close();
    await s3.stop();
  });

  const readyz = async () => {
    const begun = performance.now();
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    return {
      status: res.statusCode,
      report: res.json<ReadinessReport>(),
      ms: performance.now() - begun,
    };
  };

  const refusals = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    const line = res.body
      .split('\n')
      .find((l) => l.startsWith('atrium_outage_refusals_total{outage="storage"}'));
    return Number(line?.split(' ')[1]);
  };

  it('is ready while the bucket answers', async () => {
    const { status, report } = await readyz();
    expect(status).toBe(200);
    expect(report.checks.storage?.ok).toBe(true);
  });

  it('answers 503 naming storage within its timeout when the store goes silent', async () => {
    proxy.blackhole();
    const { status, report, ms } = await readyz();
    expect(status).toBe(503);
    expect(report.failing).toEqual(['storage']);
    expect(report.checks.storage?.error).toBe('timeout');
    expect(ms).toBeLessThan(readyTimeoutMs + 1000);
  });

  it('answers 503 naming storage when the store refuses connections, and counts the refused upload', async () => {
    await useUploadConfig(t);
    const { token: memberToken } = await t.loginMember();
    const client = new FileClient(t, { area: 'member', token: memberToken }, 'file');
    const before = await refusals();
    proxy.refuse();
    proxy.reset();
    const { status, report } = await readyz();
    expect(status).toBe(503);
    expect(report.failing).toEqual(['storage']);
    expect(report.checks.database?.ok).toBe(true);
    const init = await client.init({ name: 'notes.txt', data: textFile(2000) });
    expect(init.code).toBe(Code.Unavailable);
    expect(await refusals()).toBe(before + 1);
  });
});
