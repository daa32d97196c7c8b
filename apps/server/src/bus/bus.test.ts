import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../testing/test-app';
import { createMemoryBus } from './memory';
import { createRedisBus } from './redis';
import type { Bus } from './types';

interface Case {
  name: string;
  make(): Bus;
  /** Another instance's view of the same bus: the same object in memory, a new client on Redis. */
  peer(bus: Bus): Bus;
  /** Lets time pass for expiry checks: a moved clock in memory, a real wait on Redis. */
  wait(ms: number): Promise<void>;
}

const clock = createClock();
const cases: Case[] = [
  {
    name: 'memory',
    make: () => createMemoryBus(clock.now),
    peer: (bus) => bus,
    wait: async (ms) => clock.advance(ms),
  },
];
const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl) {
  const prefix = `atrium-test:${randomBytes(6).toString('hex')}:`;
  cases.push({
    name: 'redis',
    make: () => createRedisBus(redisUrl, prefix),
    peer: () => createRedisBus(redisUrl, prefix),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
}

const nextMessage = (messages: string[], count: number) =>
  new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (messages.length >= count) resolve();
      else if (Date.now() - started > 2000)
        reject(new Error(`expected ${count} messages, got ${messages.length}`));
      else setTimeout(check, 5);
    };
    check();
  });

describe.each(cases)('bus on $name', ({ make, peer, wait }) => {
  let bus: Bus;
  let other: Bus;
  beforeAll(() => {
    bus = make();
    other = peer(bus);
  });
  afterAll(async () => {
    for (const key of ['count:a', 'count:parallel', 'kv:short']) await bus.del(key);
    await bus.close();
    if (other !== bus) await other.close();
  });

  it('sets, gets and deletes values', async () => {
    expect(await bus.get('kv:a')).toBeUndefined();
    await bus.set('kv:a', 'one');
    expect(await bus.get('kv:a')).toBe('one');
    await bus.set('kv:a', 'two');
    expect(await bus.get('kv:a')).toBe('two');
    await bus.del('kv:a');
    expect(await bus.get('kv:a')).toBeUndefined();
    expect(await bus.ttl('kv:a')).toBeUndefined();
  });

  it('forgets a value after its time to live', async () => {
    await bus.set('kv:short', 'x', 150);
    expect(await bus.get('kv:short')).toBe('x');
    const left = await bus.ttl('kv:short');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(150);
    await wait(300);
    expect(await bus.get('kv:short')).toBeUndefined();
  });

  it('counts within a fixed window that starts at the first increment', async () => {
    expect(await bus.incr('count:a', 250)).toBe(1);
    expect(await bus.incr('count:a', 250)).toBe(2);
    expect(await bus.incr('count:a', 10_000)).toBe(3);
    expect(await bus.ttl('count:a')).toBeLessThanOrEqual(250);
    expect(await bus.get('count:a')).toBe('3');
    await wait(400);
    expect(await bus.incr('count:a', 250)).toBe(1);
  });

  it('counts atomically under parallel increments', async () => {
    const counts = await Promise.all(
      Array.from({ length: 20 }, () => bus.incr('count:parallel', 60_000)),
    );
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('delivers published messages to every subscriber until it unsubscribes', async () => {
    const a: string[] = [];
    const b: string[] = [];
    const stopA = await bus.subscribe('room:1', (m) => a.push(m));
    const stopB = await other.subscribe('room:1', (m) => b.push(m));
    await bus.publish('room:1', 'hello');
    await nextMessage(a, 1);
    await nextMessage(b, 1);
    await stopA();
    await other.publish('room:1', 'again');
    await nextMessage(b, 2);
    await other.publish('room:2', 'elsewhere');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(a).toEqual(['hello']);
    expect(b).toEqual(['hello', 'again']);
    await stopB();
  });
});
