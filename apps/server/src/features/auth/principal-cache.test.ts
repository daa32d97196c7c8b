import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../bus/memory';
import type { RedisLog } from '../../bus/connection';
import { createRedisBus } from '../../bus/redis';
import type { Bus } from '../../bus/types';
import type { AdminPrincipal } from '../../http/principal';
import { startFaultProxy, type FaultProxy } from '../../testing/fault-proxy';
import { startPrivateRedis, type PrivateRedis } from '../../testing/private-services';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { PRINCIPAL_TTL_MS, PrincipalCache } from './principal-cache';

const principal = (id: number, sessionId: number): AdminPrincipal => ({
  id,
  username: `a${id}`,
  nickname: `a${id}`,
  avatar: '',
  isFounder: false,
  rules: [],
  sessionId,
});

const ignore = () => undefined;

describe('PrincipalCache', () => {
  const started = async (bus: Bus = createMemoryBus(), max?: number) => {
    let t = 1_000;
    const cache = new PrincipalCache(bus, () => t, ignore, max);
    await cache.start();
    return { cache, advance: (ms: number) => (t += ms), now: () => t };
  };

  it('serves nothing before it listens to the bus', () => {
    const cache = new PrincipalCache(createMemoryBus(), () => 0, ignore);
    cache.set('admin', 'tok', principal(1, 1), 10_000, cache.mark());
    expect(cache.get('admin', 'tok')).toBeUndefined();
  });

  it('keeps an entry until its session is due, and never longer than the backstop', async () => {
    const { cache, advance, now } = await started();
    cache.set('admin', 'short', principal(1, 1), now() + 5_000, cache.mark());
    cache.set('admin', 'long', principal(2, 2), now() + 10 * PRINCIPAL_TTL_MS, cache.mark());
    expect(cache.get('member', 'short')).toBeUndefined();
    advance(4_999);
    expect(cache.get('admin', 'short')?.id).toBe(1);
    advance(1);
    expect(cache.get('admin', 'short')).toBeUndefined();
    advance(PRINCIPAL_TTL_MS - 5_000 - 1);
    expect(cache.get('admin', 'long')?.id).toBe(2);
    advance(1);
    expect(cache.get('admin', 'long')).toBeUndefined();
  });

  it('drops by session, by account and by area, and stores no read that raced with a drop', async () => {
    const { cache, now } = await started();
    const until = now() + 30_000;
    cache.set('admin', 'a1', principal(1, 11), until, cache.mark());
    cache.set('admin', 'a1b', principal(1, 12), until, cache.mark());
    cache.set('admin', 'a2', principal(2, 21), until, cache.mark());
    cache.set('member', 'm1', principal(1, 31), until, cache.mark());
    await cache.session(11);
    expect(cache.get('admin', 'a1')).toBeUndefined();
    expect(cache.get('admin', 'a1b')?.sessionId).toBe(12);
    await cache.subject('admin', 1);
    expect(cache.get('admin', 'a1b')).toBeUndefined();
    expect(cache.get('member', 'm1')?.id).toBe(1);
    await cache.area('admin');
    expect(cache.get('admin', 'a2')).toBeUndefined();
    expect(cache.get('member', 'm1')?.id).toBe(1);

    // A read began, then a revoke arrived, then the read finished: what it read is not kept.
    const mark = cache.mark();
    await cache.session(99);
    cache.set('admin', 'late', principal(3, 99), until, mark);
    expect(cache.get('admin', 'late')).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('hears the drops of another instance on the same bus', async () => {
    const bus = createMemoryBus();
    const one = await started(bus);
    const other = await started(bus);
    one.cache.set('admin', 'tok', principal(1, 5), one.now() + 30_000, one.cache.mark());
    await other.cache.session(5);
    expect(one.cache.get('admin', 'tok')).toBeUndefined();
  });

  it('holds a bounded number of entries, the oldest leaving first', async () => {
    const { cache, now } = await started(createMemoryBus(), 2);
    for (const id of [1, 2, 3]) cache.set('admin', `t${id}`, principal(id, id), now() + 9_000, 0);
    expect(cache.size).toBe(2);
    expect(cache.get('admin', 't1')).toBeUndefined();
    expect(cache.get('admin', 't3')?.id).toBe(3);
  });
});

describe('signed-in callers served from memory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('answers from memory until the session is next touched: a write nobody announces shows after at most a minute', async () => {
    const { token, user } = await t.loginAdmin({ username: 'memory_1', rules: [] });
    const nickname = async () =>
      (
        await t.post<{ user: { nickname: string } }>(
          '/admin/api/app/config',
          {},
          { area: 'admin', token },
        )
      ).json.data.user.nickname;
    expect(await nickname()).toBe('memory_1');
    // Straight to the database, as no code of Atrium writes: only the backstop can see it.
    await t.db
      .updateTable('admins')
      .set({ nickname: 'Written behind its back' })
      .where('id', '=', user.id)
      .execute();
    expect(await nickname()).toBe('memory_1');
    t.clock.advance(PRINCIPAL_TTL_MS);
    expect(await nickname()).toBe('Written behind its back');
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('the principal cache when Redis goes away', () => {
  let redis: PrivateRedis;
  let proxy: FaultProxy;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    proxy = await startFaultProxy({ host: '127.0.0.1', port: redis.port });
    const prefix = `atrium-test:${randomBytes(4).toString('hex')}:`;
    // The outage is the point: its warnings are expected, not news.
    const log = { warn: ignore, info: ignore } as unknown as RedisLog;
    t = await createTestApp({ bus: createRedisBus(`redis://${proxy.address}`, prefix, { log }) });
  });
  afterAll(async () => {
    await t?.cleanup();
    await t?.bus.close();
    await proxy?.close();
    await redis?.destroy();
  });

  it('is bypassed while pub/sub is down: a revoke it could not hear of is refused at once', async () => {
    const { token } = await t.loginAdmin({ username: 'outage_1', rules: [] });
    const who = async () =>
      (
        await t.post<{ user: { id: number } }>(
          '/admin/api/app/config',
          {},
          { area: 'admin', token },
        )
      ).json.data.user.id;
    expect(await who()).toBeGreaterThan(0);
    expect(t.app.services.principals.size).toBe(1);

    proxy.blackhole();
    for (let i = 0; !(t.bus.pubsub().live === false) && i < 250; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(t.bus.pubsub().live).toBe(false);
    // Another instance revokes the session; its news cannot reach this one.
    await t.db.updateTable('sessions').set({ revokedAt: t.clock.now() }).execute();
    expect(await who()).toBe(0);
    expect(t.app.services.principals.size).toBe(0);

    // Back: whatever was missed is forgotten, and new sign-ins are kept again.
    proxy.heal();
    for (let i = 0; !t.bus.pubsub().live && i < 250; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const again = await t.loginAdmin({ username: 'outage_2', rules: [] });
    await t.post('/admin/api/app/config', {}, { area: 'admin', token: again.token });
    expect(t.app.services.principals.size).toBe(1);
  });
});
