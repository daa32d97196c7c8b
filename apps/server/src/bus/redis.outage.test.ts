import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outageOf, UnavailableError } from '../http/unavailable';
import { startFaultProxy, type FaultProxy } from '../testing/fault-proxy';
import { startPrivateRedis, type PrivateRedis } from '../testing/private-services';
import { redisConnections, type RedisLog } from './connection';
import { createRedisBus } from './redis';
import type { Bus } from './types';

/**
 * The Redis bus when Redis goes away (issue 26): a redis-server of the test's own, stopped and
 * started again, or cut off by a proxy that blackholes it. Runs where the Redis suites run.
 */

interface Line {
  level: 'warn' | 'info';
  msg: string;
}

function captureLog(): { log: RedisLog; lines: Line[] } {
  const lines: Line[] = [];
  const log = {
    warn: (_obj: unknown, msg?: string) => lines.push({ level: 'warn', msg: msg ?? '' }),
    info: (_obj: unknown, msg?: string) => lines.push({ level: 'info', msg: msg ?? '' }),
  } as unknown as RedisLog;
  return { log, lines };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** How long a call took to fail, and what it failed with. */
async function failure(call: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { ms: performance.now() - started, error };
}

describe.runIf(process.env.TEST_REDIS_URL)('the Redis bus when Redis goes away', () => {
  let redis: PrivateRedis;
  let proxy: FaultProxy;
  const open: (Bus | Redis)[] = [];
  const prefix = `atrium-test:${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    proxy = await startFaultProxy({ host: '127.0.0.1', port: redis.port });
  });
  afterAll(async () => {
    for (const c of open) {
      if (c instanceof Redis) c.disconnect();
      else await c.close();
    }
    await proxy.close();
    await redis.destroy();
  });

  /** Another instance's publisher, straight to the server (not through the proxy). */
  const direct = () => {
    const client = new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
    open.push(client);
    return (channel: string, message: string) => client.publish(prefix + channel, message);
  };

  it('refuses calls within the timeout as a Redis outage, logs once, and resubscribes every channel when Redis is back', async () => {
    const { log, lines } = captureLog();
    const bus = createRedisBus(redis.url, prefix, { log });
    open.push(bus);
    const publish = direct();
    const got: string[] = [];
    await bus.subscribe('before', (m) => got.push(`before:${m}`));
    expect(bus.pubsub()).toEqual({ live: true, outages: 0 });
    await bus.set('k', 'v');

    await redis.stop();
    const get = await failure(bus.get('k'));
    expect(get.error).toBeInstanceOf(UnavailableError);
    expect(outageOf(get.error)).toBe('redis');
    expect(get.ms).toBeLessThan(3_000);
    expect(outageOf((await failure(bus.publish('before', 'x'))).error)).toBe('redis');
    expect(outageOf((await failure(bus.incr('n', 1_000))).error)).toBe('redis');
    // A subscription made during the outage is taken, not refused, and not awaited for long.
    const started = performance.now();
    await bus.subscribe('during', (m) => got.push(`during:${m}`));
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(bus.pubsub().live).toBe(false);
    await sleep(1_500); // several reconnect attempts fail meanwhile

    await redis.start();
    const backMs = await until(async () => (await bus.get('k')) === undefined, 5_000);
    await until(() => bus.pubsub().live, 5_000);
    expect(bus.pubsub().outages).toBe(1);
    await publish('before', '1');
    await publish('during', '2');
    await until(() => got.length === 2, 2_000);
    expect(got.sort()).toEqual(['before:1', 'during:2']);
    // One line per connection for the whole outage, and one when it is back.
    const warned = lines.filter((l) => l.level === 'warn');
    expect(warned.map((l) => l.msg).sort()).toEqual([
      'Redis (bus) is unreachable: calls that need it are refused or fall back until it is back',
      'Redis (pub/sub) is unreachable: calls that need it are refused or fall back until it is back',
    ]);
    expect(lines.filter((l) => l.level === 'info')).toHaveLength(2);
    console.info(
      `[redis outage] stopped Redis: get refused in ${get.ms.toFixed(0)} ms; calls succeed ${backMs.toFixed(0)} ms after the restart`,
    );
  });

  it('drops a blackholed connection within the timeout, and resumes on new connections after heal', async () => {
    const { log } = captureLog();
    const bus = createRedisBus(`redis://${proxy.address}`, prefix, { log });
    open.push(bus);
    const publish = direct();
    const got: string[] = [];
    await bus.subscribe('room', (m) => got.push(m));
    await bus.set('k', 'v');
    await publish('room', 'a');
    await until(() => got.length === 1, 2_000);

    proxy.blackhole();
    const cutAt = performance.now();
    const get = await failure(bus.get('k'));
    expect(outageOf(get.error)).toBe('redis');
    expect(get.ms).toBeLessThan(3_000);
    // The listener has no command that would notice: the ping does.
    await until(() => !bus.pubsub().live, 5_000);
    const noticedMs = performance.now() - cutAt;
    expect(noticedMs).toBeLessThan(3_000);
    const again = await failure(bus.get('k'));
    expect(outageOf(again.error)).toBe('redis');
    expect(again.ms).toBeLessThan(3_000);

    proxy.heal();
    const healedMs = await until(async () => (await bus.get('k')) === 'v', 5_000);
    await until(() => bus.pubsub().live, 5_000);
    await publish('room', 'b');
    await until(() => got.length === 2, 2_000);
    expect(got).toEqual(['a', 'b']);
    console.info(
      `[redis outage] blackhole: get refused in ${get.ms.toFixed(0)} ms, then ${again.ms.toFixed(0)} ms; ` +
        `pub/sub known down after ${noticedMs.toFixed(0)} ms; calls succeed ${healedMs.toFixed(0)} ms after heal`,
    );
  });

  it('closes without waiting for a silent host', async () => {
    const bus = createRedisBus(`redis://${proxy.address}`, prefix, { log: captureLog().log });
    await bus.subscribe('room', () => undefined);
    await bus.set('k', 'v');
    proxy.blackhole();
    try {
      const started = performance.now();
      await bus.close();
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      proxy.heal();
    }
  });

  it('forgets a connection closed while it waits to reconnect (ioredis never ends it), so its role reads up again', async () => {
    const buses = () => redisConnections().filter((c) => c.role === 'bus');
    const others = buses().length;
    const bus = createRedisBus(`redis://${proxy.address}`, prefix, { log: captureLog().log });
    await bus.set('k', 'v');
    expect(buses()).toHaveLength(others + 1);
    proxy.refuse();
    proxy.reset();
    try {
      await until(() => buses().some((c) => c.status === 'reconnecting'), 5_000);
      await bus.close();
      // Before the fix it stayed listed, 'reconnecting', for the life of the process.
      expect(buses()).toHaveLength(others);
    } finally {
      proxy.heal();
    }
  });

  it('passes Redis refusing a command on as it is: a bug, not an outage', async () => {
    const bus = createRedisBus(redis.url, prefix, { log: captureLog().log });
    open.push(bus);
    await bus.set('text', 'not a number');
    const { error } = await failure(bus.incr('text', 1_000));
    expect(error).toBeInstanceOf(Error);
    expect(outageOf(error)).toBeUndefined();
  });
});
