import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbPerTest } from '../testing/db';
import { writeGateOf } from './index';
import { WriteGate } from './sqlite-write-gate';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the turn to write among one process’s SQLite writers', () => {
  it('is handed on first come, first served', async () => {
    const gate = new WriteGate(1_000);
    const order: string[] = [];
    await gate.acquire();
    const second = gate.run(async () => void order.push('second'));
    const third = gate.run(async () => void order.push('third'));
    await sleep(10);
    expect(order).toEqual([]);
    gate.release();
    await Promise.all([second, third]);
    expect(order).toEqual(['second', 'third']);
    // Free again: the next writer takes it at once.
    await gate.run(async () => void order.push('fourth'));
    expect(order).toEqual(['second', 'third', 'fourth']);
  });

  it('bounds a wait: past it the writer is refused as SQLite refuses a locked database, and leaves the queue', async () => {
    const gate = new WriteGate(50);
    await gate.acquire();
    const refused = gate.acquire();
    await expect(refused).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    gate.release();
    // The refused writer is not handed the turn: the next one gets it.
    await expect(gate.run(async () => 'written')).resolves.toBe('written');
  });
});

describe('the instance’s SQLite connection and the turn', () => {
  const fresh = testDbPerTest();

  it('waits for its turn to write without holding the event loop', async () => {
    const testDb = await fresh.open('sqlite');
    const { db } = testDb;
    const gate = writeGateOf(db);
    if (!gate) throw new Error('a SQLite database has a write gate');
    await sql`create table t (v integer)`.execute(db);

    await gate.acquire(); // another writer of this process (a thread) is writing
    // A read needs no turn.
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]?.n).toBe(0);
    let written = false;
    const write = sql`insert into t (v) values (1)`.execute(db).then(() => (written = true));
    const transaction = db.transaction().execute(async (trx) => {
      await sql`insert into t (v) values (2)`.execute(trx);
    });
    // The event loop runs meanwhile: a timer fires on time (SQLite's busy handler would have
    // slept on this thread for up to its 5 s timeout).
    const started = performance.now();
    await sleep(30);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(written).toBe(false);
    gate.release();
    await Promise.all([write, transaction]);
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]?.n).toBe(2);
  });

  it('gives the turn back however a transaction ends', async () => {
    const testDb = await fresh.open('sqlite');
    const { db } = testDb;
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        throw new Error('changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    // Held still, this would wait and be refused.
    const gate = writeGateOf(db);
    await expect(gate?.run(async () => 'free')).resolves.toBe('free');
  });
});
