import { sql, type Kysely } from 'kysely';
import { isPostgres } from './columns';
import type { Db } from './index';

/** The database without its plugins, or undefined on PostgreSQL, which keeps its own statistics. */
function sqliteOf(db: Db): Db | undefined {
  const plain = db.withoutPlugins();
  return isPostgres(plain as Kysely<unknown>) ? undefined : plain;
}

/**
 * Keeps SQLite's planner statistics to `sqlite_stat1` (rows per index prefix), dropping the
 * sampled key values of `sqlite_stat4` that an `ANALYZE` by this build of SQLite
 * (SQLITE_ENABLE_STAT4, as better-sqlite3 ships it) adds.
 *
 * With those samples in the file, SQLite re-plans a statement whenever a value bound to a
 * column compared in its WHERE clause may change the plan: every execution of every statement
 * that reads by an indexed column is parsed and planned again. Measured on a library of
 * 1,000,000 files analyzed so: a category looked up by its path took 20-40 µs against 6 µs
 * without the samples. Atrium's hot queries choose their index themselves (see
 * file-listing.queries.ts), so the samples buy no better plan. Returns how many it dropped.
 */
export async function keepStatementsPrepared(db: Db): Promise<number> {
  const plain = sqliteOf(db);
  if (!plain) return 0;
  const table = await sql<{ name: string }>`
    select name from sqlite_schema where type = 'table' and name = 'sqlite_stat4'
  `.execute(plain);
  if (table.rows.length === 0) return 0;
  const dropped = Number((await sql`delete from sqlite_stat4`.execute(plain)).numAffectedRows ?? 0);
  // Statements prepared from now on plan from sqlite_stat1 alone.
  if (dropped > 0) await sql`analyze sqlite_schema`.execute(plain);
  return dropped;
}

/**
 * Counts the indexes an analyzed SQLite database has no statistics for: those a migration created
 * after the last `ANALYZE`, on a table it counted. Blind to such an index, the planner takes it
 * for the most selective one: the category index widened by migration 2026_12_06_1000 listed
 * whole libraries through it with a sort, a page taking 1.5 s in the list bench. A database never
 * analyzed is left alone (the planner then guesses alike for every index). Returns their names.
 */
export async function countNewIndexes(db: Db): Promise<string[]> {
  const plain = sqliteOf(db);
  if (!plain) return [];
  const analyzed = await sql`
    select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat1'
  `.execute(plain);
  if (analyzed.rows.length === 0) return [];
  const { rows } = await sql<{ name: string }>`
    select name from sqlite_schema where type = 'index'
      and tbl_name in (select tbl from sqlite_stat1)
      and name not in (select idx from sqlite_stat1 where idx is not null)
  `.execute(plain);
  for (const { name } of rows) await sql`analyze ${sql.id(name)}`.execute(plain);
  return rows.map((r) => r.name);
}

/** What migrating leaves SQLite's planner: every index counted, no samples (see above). */
export async function tendPlannerStatistics(db: Db): Promise<void> {
  await countNewIndexes(db);
  await keepStatementsPrepared(db);
}
