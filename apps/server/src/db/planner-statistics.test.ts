import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbKinds, testDbPerTest, type TestDb } from '../testing/db';
import { migrateToLatest } from './migrate';
import { countNewIndexes, keepStatementsPrepared } from './planner-statistics';

const T = Date.UTC(2026, 10, 29, 9, 0, 0);

/** Rows in one of SQLite's statistics tables. */
async function statRows(t: TestDb, table: 'sqlite_stat1' | 'sqlite_stat4'): Promise<number> {
  const found = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(
    t.db,
  );
  return Number(found.rows[0]?.n);
}

/** 40 admins: a table ANALYZE counts. */
async function addAdmins(t: TestDb): Promise<void> {
  await t.db
    .insertInto('admins')
    .values(
      Array.from({ length: 40 }, (_, i) => ({
        username: `admin_${String(i)}`,
        passwordHash: 'h',
        nickname: '',
        avatar: '',
        isFounder: 0,
        disabled: 0,
        createdAt: T,
        updatedAt: T,
      })),
    )
    .execute();
}

describe('planner statistics', () => {
  const fresh = testDbPerTest();

  it("SQLite: an ANALYZE's sampled values are dropped when the server migrates; the row counts stay", async () => {
    const t = await fresh.open('sqlite');
    await addAdmins(t);
    await sql`analyze`.execute(t.db);
    expect(await statRows(t, 'sqlite_stat4')).toBeGreaterThan(0);
    const counted = await statRows(t, 'sqlite_stat1');
    expect(counted).toBeGreaterThan(0);

    // `atrium start` and `atrium migrate` both migrate: nothing is pending, the samples go.
    expect(await migrateToLatest(t.db)).toEqual([]);
    expect(await statRows(t, 'sqlite_stat4')).toBe(0);
    expect(await statRows(t, 'sqlite_stat1')).toBe(counted);
    // The lookup by username still plans on its index, from the row counts.
    const plan = await sql<{ detail: string }>`
      explain query plan select id from admins where username = ${'admin_7'}
    `.execute(t.db);
    expect(plan.rows.map((r) => r.detail).join(' ')).toMatch(/USING (COVERING )?INDEX/);
    expect(await keepStatementsPrepared(t.db)).toBe(0);
  });

  it('SQLite: an index created after an ANALYZE is counted when the server migrates', async () => {
    const t = await fresh.open('sqlite');
    await addAdmins(t);
    await sql`analyze`.execute(t.db);
    await sql`create index admins_nickname_test_idx on admins (nickname)`.execute(t.db);
    const counted = async () =>
      (
        await sql<{ idx: string }>`
          select idx from sqlite_stat1 where idx = 'admins_nickname_test_idx'
        `.execute(t.db)
      ).rows;
    expect(await counted()).toEqual([]);
    expect(await migrateToLatest(t.db)).toEqual([]);
    expect(await counted()).toEqual([{ idx: 'admins_nickname_test_idx' }]);
    // Counting it sampled its keys too: those are gone again.
    expect(await statRows(t, 'sqlite_stat4')).toBe(0);
    expect(await countNewIndexes(t.db)).toEqual([]);
  });

  it('SQLite: a database never analyzed is left as it is', async () => {
    const t = await fresh.open('sqlite');
    expect(await keepStatementsPrepared(t.db)).toBe(0);
    expect(await countNewIndexes(t.db)).toEqual([]);
    const tables = await sql<{ name: string }>`
      select name from sqlite_schema where name like 'sqlite_stat%'
    `.execute(t.db);
    expect(tables.rows).toEqual([]);
  });

  it.runIf(testDbKinds.includes('postgres'))('PostgreSQL keeps its own statistics', async () => {
    const t = await fresh.open('postgres');
    expect(await keepStatementsPrepared(t.db)).toBe(0);
    expect(await countNewIndexes(t.db)).toEqual([]);
  });
});
