import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds, type TestDb } from '../testing/db';
import { createClock } from '../testing/test-app';
import { defaultInstanceTiming, Instances } from './instances';

describe.each(testDbKinds)('instances on %s', (kind) => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb(kind);
  });
  afterAll(async () => {
    await testDb.cleanup();
  });

  it('sees another instance alive while it beats, dead 3 s after its last beat, and gone once stopped', async () => {
    const clock = createClock();
    const a = new Instances(testDb.db, clock.now);
    const b = new Instances(testDb.db, clock.now);
    await a.start();
    await b.start();
    expect(a.id).not.toBe(b.id);
    expect(await b.isAlive(a.id)).toBe(true);
    expect(await b.alive()).toEqual(expect.arrayContaining([a.id, b.id]));

    clock.advance(defaultInstanceTiming.deadAfterMs - 1);
    expect(await b.isAlive(a.id)).toBe(true);
    clock.advance(2);
    // `a` missed its beats (a kill -9 looks like this): `b` counts it dead, and `a` knows it
    // may no longer finish what it held.
    expect(await b.isAlive(a.id)).toBe(false);
    expect(a.holdsOn()).toBe(false);
    await a.beat();
    expect(await b.isAlive(a.id)).toBe(true);
    expect(a.holdsOn()).toBe(true);

    await a.stop();
    expect(await b.isAlive(a.id)).toBe(false);
    expect(await b.alive()).not.toContain(a.id);
    await a.beat();
    expect(await b.isAlive(a.id)).toBe(false);
    await b.stop();
  });

  it('grants the others the time it was paused itself, not a wall clock set forward', async () => {
    const clock = createClock();
    let monotonic = 0;
    const timing = { heartbeatMs: 1_000, deadAfterMs: 3_000 };
    const a = new Instances(testDb.db, clock.now, timing, undefined, () => monotonic);
    const b = new Instances(testDb.db, clock.now, timing, undefined, () => monotonic);
    await a.start();
    await b.start();
    // The wall clock alone moves (the way the other tests age a heartbeat): `a` is dead to `b`.
    clock.advance(timing.deadAfterMs + 1);
    expect(await b.isAlive(a.id)).toBe(false);
    await a.beat();
    expect(await b.isAlive(a.id)).toBe(true);

    // Both were paused 5 s (one machine, or one process) and `b` asks first on waking: its own
    // overdue timer tells it so, and `a`'s heartbeat, as old as the pause, is still alive.
    clock.advance(5_000);
    monotonic += 5_000;
    expect(await b.isAlive(a.id)).toBe(true);
    expect(b.recentPauseMs()).toBe(4_000);
    expect(await b.alive()).toContain(a.id);
    // `a` itself may not finish what it holds until its heartbeat is written again.
    expect(a.holdsOn()).toBe(false);
    await a.beat();
    expect(a.holdsOn()).toBe(true);
    await a.stop();
    await b.stop();
    expect(b.recentPauseMs()).toBe(0);
  });

  it('forgets instances dead for a day', async () => {
    const clock = createClock();
    const gone = new Instances(testDb.db, clock.now);
    await gone.start();
    const live = new Instances(testDb.db, clock.now);
    clock.advance(24 * 60 * 60_000 + 1);
    await live.start();
    expect(await live.forgetDead()).toBeGreaterThanOrEqual(1);
    const ids = await testDb.db.selectFrom('instances').select('id').execute();
    expect(ids.map((r) => r.id)).not.toContain(gone.id);
    expect(ids.map((r) => r.id)).toContain(live.id);
    await live.stop();
    await gone.stop();
  });
});
