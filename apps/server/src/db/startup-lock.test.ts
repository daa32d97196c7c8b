import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds, type TestDb } from '../testing/db';
import { createDb, type Db } from './index';
import { withStartupLock } from './startup-lock';

/** Resolves `open()` from outside, so a test decides when a critical section may end. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A second handle on the same database, as another process starting beside this one has. */
async function peerOf(test: TestDb): Promise<Db> {
  if (test.database.kind === 'sqlite') return createDb(test.database);
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
    test.db,
  );
  return createDb(test.database, { searchPath: rows[0]?.schema ?? '' });
}

describe.each(testDbKinds)('the start-up lock on %s', (kind) => {
  const opened: { destroy(): Promise<void> }[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  const setUp = async () => {
    const test = await createTestDb(kind);
    cleanups.push(test.cleanup);
    const peer = await peerOf(test);
    opened.push(peer);
    return { test, peer };
  };

  it('lets a second start in only once the first has finished', async () => {
    const { test, peer } = await setUp();
    const events: string[] = [];
    const release = gate();
    const first = withStartupLock(test.db, test.database, async () => {
      events.push('first in');
      await release.opened;
      events.push('first out');
    });
    await tick(100);
    const second = withStartupLock(peer, test.database, () => {
      events.push('second in');
      return Promise.resolve();
    });
    await tick(300);
    expect(events).toEqual(['first in']);
    release.open();
    await Promise.all([first, second]);
    expect(events).toEqual(['first in', 'first out', 'second in']);
  });

  it('is freed when the work fails, and hands back what the work returned', async () => {
    const { test, peer } = await setUp();
    await expect(
      withStartupLock(test.db, test.database, () => Promise.reject(new Error('migration broke'))),
    ).rejects.toThrow('migration broke');
    const answer = withStartupLock(peer, test.database, () => Promise.resolve(42));
    const late = tick(5_000).then(() => 'still waiting');
    expect(await Promise.race([answer, late])).toBe(42);
  });

  it.runIf(kind === 'postgres')('does not hold up a deployment in another schema', async () => {
    const [a, b] = await Promise.all([createTestDb(kind), createTestDb(kind)]);
    cleanups.push(a.cleanup, b.cleanup);
    const release = gate();
    const holding = withStartupLock(a.db, a.database, () => release.opened);
    await tick(100);
    const other = withStartupLock(b.db, b.database, () => Promise.resolve('in'));
    const late = tick(5_000).then(() => 'still waiting');
    expect(await Promise.race([other, late])).toBe('in');
    release.open();
    await holding;
  });
});
