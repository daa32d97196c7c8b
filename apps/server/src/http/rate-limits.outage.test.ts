import { randomBytes } from 'node:crypto';
import { Code } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../testing/fault-proxy';
import { startPrivateRedis, type PrivateRedis } from '../testing/private-services';
import { limitSpecs } from './limits';
import { RateLimits } from './rate-limits';

/**
 * The policy of README "Redis outages": limits keep counting, per instance, in memory while
 * Redis is out of reach, and Redis's counts apply again once it is back. A redis-server of the
 * test's own behind a proxy that blackholes it or is stopped; runs where the Redis suites run.
 */

const silent = { warn: () => undefined, info: () => undefined };

/** Runs a call and how long it took; a refusal is returned, not thrown. */
async function timed<T>(call: () => Promise<T>): Promise<{ ms: number; outcome: unknown }> {
  const started = performance.now();
  const outcome = await call().then(
    (value) => value,
    (error: unknown) => error,
  );
  return { ms: performance.now() - started, outcome };
}

describe.runIf(process.env.TEST_REDIS_URL)('rate limits when Redis goes away', () => {
  let redis: PrivateRedis;
  let proxy: FaultProxy;
  const made: RateLimits[] = [];

  beforeAll(async () => {
    redis = await startPrivateRedis();
    proxy = await startFaultProxy({ host: '127.0.0.1', port: redis.port });
  });
  afterAll(async () => {
    proxy.heal();
    await Promise.all(made.map((l) => l.close()));
    await proxy.close();
    await redis.destroy();
  });

  const fresh = async (url: string) => {
    const limits = new RateLimits({
      kind: 'redis',
      url,
      prefix: `atrium-test-${randomBytes(4).toString('hex')}:`,
      log: silent,
    });
    made.push(limits);
    // Connected before the test counts on Redis.
    await limits.peek('passwordChangeFailures', 'warm-up');
    return limits;
  };

  it('keeps refusing past the limit while Redis is blackholed, answering within 3 s, and counts in Redis again after heal', async () => {
    const limits = await fresh(`redis://${proxy.address}`);
    const { points } = limitSpecs.passwordChangeFailures;
    await limits.consume('passwordChangeFailures', 'k');
    await limits.consume('passwordChangeFailures', 'k');

    proxy.blackhole();
    const attempts = [];
    for (let i = 0; i <= points; i++) {
      attempts.push(await timed(() => limits.consume('passwordChangeFailures', 'k')));
    }
    // The instance's own count starts at zero: exactly the limit passes, the next is refused.
    expect(attempts.slice(0, points).map((a) => a.outcome)).toEqual(
      Array.from({ length: points }, (_, i) => expect.objectContaining({ count: i + 1 })),
    );
    expect(attempts[points]?.outcome).toMatchObject({ code: Code.TooManyRequests });
    const slowest = Math.max(...attempts.map((a) => a.ms));
    expect(slowest).toBeLessThan(3_000);

    proxy.heal();
    const healedAt = performance.now();
    // Redis's window holds the two attempts counted before the outage.
    for (;;) {
      const { count } = await limits.peek('passwordChangeFailures', 'k');
      if (count === 2) break;
      if (performance.now() - healedAt > 5_000) throw new Error(`still counting ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.info(
      `[rate limits] blackholed Redis: slowest attempt ${slowest.toFixed(0)} ms (first ${attempts[0]?.ms.toFixed(0)} ms); ` +
        `Redis counts again ${(performance.now() - healedAt).toFixed(0)} ms after heal`,
    );
  });

  it('counts at once in memory while Redis is stopped, and sign-in limits still refuse', async () => {
    const limits = await fresh(redis.url);
    await redis.stop();
    try {
      const { points } = limitSpecs.signInPerAddress;
      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: points + 1 }, () =>
          timed(() => limits.consume('signInPerAddress', '203.0.113.9')),
        ),
      );
      const ms = performance.now() - started;
      expect(outcomes.filter((o) => o.outcome instanceof Error)).toHaveLength(1);
      expect(outcomes.find((o) => o.outcome instanceof Error)?.outcome).toMatchObject({
        code: Code.TooManyRequests,
      });
      expect(ms).toBeLessThan(3_000);
      console.info(
        `[rate limits] stopped Redis: ${points + 1} parallel sign-in attempts counted in ${ms.toFixed(0)} ms`,
      );
    } finally {
      await redis.start();
    }
  });
});
