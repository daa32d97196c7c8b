import { sql, type Kysely, type Transaction } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds, type TestDb } from '../testing/db';
import type { Database } from './types';
import { TransactionGroup } from './transaction-group';

describe.each(testDbKinds)('transactions grouped by turn on %s', (kind) => {
  let testDb: TestDb | undefined;
  afterEach(async () => {
    await testDb?.cleanup();
    testDb = undefined;
  });

  async function setUp() {
    testDb = await createTestDb(kind);
    await sql`create table grouped (id integer primary key)`.execute(testDb.db);
    return testDb.db;
  }
  const rows = async (db: Kysely<Database>) =>
    (await sql<{ id: number }>`select id from grouped order by id`.execute(db)).rows.map((r) =>
      Number(r.id),
    );

  it('runs the works asked for in one turn in one transaction, at most maxSize to one', async () => {
    const db = await setUp();
    const group = new TransactionGroup<Database>(db, { maxSize: 2 });
    const seen: Transaction<Database>[] = [];
    const insert = (id: number) =>
      group.run(async (trx) => {
        seen.push(trx);
        await sql`insert into grouped (id) values (${id})`.execute(trx);
        return id * 10;
      });
    expect(await Promise.all([1, 2, 3, 4, 5].map(insert))).toEqual([10, 20, 30, 40, 50]);
    expect(new Set(seen).size).toBe(3);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).toBe(seen[3]);
    expect(await rows(db)).toEqual([1, 2, 3, 4, 5]);
  });

  it('lets the event loop turn between two groups, never inside one', async () => {
    const db = await setUp();
    const group = new TransactionGroup<Database>(db, { maxSize: 2 });
    const order: string[] = [];
    const insert = (id: number) =>
      group.run(async (trx) => {
        order.push(`work ${String(id)}`);
        // Asked for by the first group's last work: it waits for the loop's next turn.
        if (id === 2) setImmediate(() => order.push('a turn'));
        await sql`insert into grouped (id) values (${id})`.execute(trx);
      });
    await Promise.all([1, 2, 3, 4].map(insert));
    expect(order).toEqual(['work 1', 'work 2', 'a turn', 'work 3', 'work 4']);
  });

  it('lets a work that cannot be done fail alone; the others of its group are done', async () => {
    const db = await setUp();
    await sql`insert into grouped (id) values (2)`.execute(db);
    const group = new TransactionGroup<Database>(db);
    const insert = (id: number) =>
      group.run(async (trx) => {
        await sql`insert into grouped (id) values (${id})`.execute(trx);
      });
    const results = await Promise.allSettled([1, 2, 3].map(insert));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await rows(db)).toEqual([1, 2, 3]);
  });
});
