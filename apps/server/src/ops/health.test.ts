import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBus } from '../bus/index';
import type { Bus } from '../bus/types';
import { startFaultProxy, type FaultProxy } from '../testing/fault-proxy';
import { startPrivateRedis, type PrivateRedis } from '../testing/private-services';
import { createTestApp, type TestApp } from '../testing/test-app';
import type { ReadinessReport } from './readiness';

const readyTimeoutMs = 400;
const metricsToken = 'readyz-test-metrics-token';

async function readyz(
  t: TestApp,
): Promise<{ status: number; report: ReadinessReport; ms: number }> {
  const begun = performance.now();
  const res = await t.app.inject({ method: 'GET', url: '/readyz' });
  expect(res.headers['cache-control']).toBe('no-store');
  return {
    status: res.statusCode,
    report: res.json<ReadinessReport>(),
    ms: performance.now() - begun,
  };
}

describe('health and readiness on SQLite and local storage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ATRIUM_READY_TIMEOUT_MS: String(readyTimeoutMs) } });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('answers /healthz with 200 without asking anything, uncached and outside the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers /readyz with 200 and each check with its latency when all answer', async () => {
    const { status, report } = await readyz(t);
    expect(status).toBe(200);
    expect(report.status).toBe('ready');
    expect(report.failing).toEqual([]);
    // No REDIS_URL: Redis is not one of the checks.
    expect(Object.keys(report.checks).sort()).toEqual(['database', 'storage']);
    for (const check of Object.values(report.checks)) {
      expect(check.ok).toBe(true);
      expect(check.ms).toBeGreaterThanOrEqual(0);
      expect(check.ms).toBeLessThan(readyTimeoutMs);
    }
  });

  it('answers 503 naming storage when the storage folder is not a usable folder, 200 once it is back', async () => {
    const dir = t.config.storage.driver === 'local' ? t.config.storage.dir : '';
    rmSync(dir, { recursive: true, force: true });
    // A file where the folder should be (a mount gone wrong): nothing can be stored under it.
    writeFileSync(dir, 'not a folder');
    try {
      const { status, report } = await readyz(t);
      expect(status).toBe(503);
      expect(report.status).toBe('unready');
      expect(report.failing).toEqual(['storage']);
      expect(report.checks.storage).toMatchObject({ ok: false, error: 'failed' });
      expect(report.checks.database?.ok).toBe(true);
    } finally {
      rmSync(dir, { force: true });
    }
    // A fresh install's folder does not exist until the first upload: that is not a failure.
    expect((await readyz(t)).status).toBe(200);
  });
});

const hasRedisServer = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasRedisServer)('readiness with Redis configured', () => {
  let redis: PrivateRedis;
  let proxy: FaultProxy;
  let bus: Bus;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    proxy = await startFaultProxy({ host: '127.0.0.1', port: redis.port });
    const env = {
      REDIS_URL: `redis://${proxy.address}`,
      REDIS_PREFIX: `readyz-${randomBytes(4).toString('hex')}:`,
      ATRIUM_READY_TIMEOUT_MS: String(readyTimeoutMs),
      ATRIUM_METRICS_TOKEN: metricsToken,
    };
    const busConfig = {
      redisUrl: env.REDIS_URL,
      redisPrefix: env.REDIS_PREFIX,
      logLevel: 'silent' as const,
    };
    bus = createBus(busConfig);
    t = await createTestApp({ env, bus });
  });

  afterEach(async () => {
    // Every test leaves Redis reachable again, so closing the connections needs no outage to end.
    proxy.heal();
  });

  afterAll(async () => {
    proxy.reset();
    await t.cleanup();
    await bus.close();
    await proxy.close();
    await redis.destroy();
  });

  const redisGauges = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    const line = (prefix: string) =>
      res.body
        .split('\n')
        .find((l) => l.startsWith(prefix))
        ?.split(' ')[1];
    return {
      bus: line('atrium_redis_connection_up{role="bus"}'),
      dependency: line('atrium_dependency_up{dependency="redis"}'),
    };
  };

  it('lists Redis among the checks when REDIS_URL is set, and shows it up in the metrics', async () => {
    const { status, report } = await readyz(t);
    expect(status).toBe(200);
    expect(Object.keys(report.checks).sort()).toEqual(['database', 'redis', 'storage']);
    expect(report.checks.redis?.ok).toBe(true);
    // The bus's own connection comes up beside the app's start (readiness pings the dependency's
    // connection): its gauge turns 1 once it has.
    await expect.poll(redisGauges, { timeout: 5_000 }).toEqual({ bus: '1', dependency: '1' });
  });

  it('answers 503 naming redis within its timeout when Redis goes silent (a blackholed host)', async () => {
    proxy.blackhole();
    const first = await readyz(t);
    expect(first.status).toBe(503);
    expect(first.report.failing).toEqual(['redis']);
    expect(first.report.checks.redis).toMatchObject({ ok: false });
    expect(first.ms).toBeLessThan(readyTimeoutMs + 1000);
    // Probing again while the first probe may still hang answers as promptly.
    const again = await readyz(t);
    expect(again.status).toBe(503);
    expect(again.ms).toBeLessThan(readyTimeoutMs + 1000);
    proxy.reset();
  });

  it('answers 503 naming redis when Redis is stopped (its port closed)', async () => {
    proxy.refuse();
    await redis.stop();
    try {
      const { status, report, ms } = await readyz(t);
      expect(status).toBe(503);
      expect(report.failing).toEqual(['redis']);
      expect(report.checks.database?.ok).toBe(true);
      expect(report.checks.storage?.ok).toBe(true);
      expect(ms).toBeLessThan(readyTimeoutMs + 1000);
      expect(await redisGauges()).toEqual({ bus: '0', dependency: '0' });
    } finally {
      await redis.start();
    }
  });
});
