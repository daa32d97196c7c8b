import { sql, type Kysely } from 'kysely';
import { isPostgres } from './columns';
import type { Db } from './index';

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
  const plain = db.withoutPlugins();
  if (isPostgres(plain as Kysely<unknown>)) return 0;
  const table = await sql<{ name: string }>`
    select name from sqlite_schema where type = 'table' and name = 'sqlite_stat4'
  `.execute(plain);
  if (table.rows.length === 0) return 0;
  const dropped = Number((await sql`delete from sqlite_stat4`.execute(plain)).numAffectedRows ?? 0);
  // Statements prepared from now on plan from sqlite_stat1 alone.
  if (dropped > 0) await sql`analyze sqlite_schema`.execute(plain);
  return dropped;
}
