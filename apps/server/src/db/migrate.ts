import { Migrator, sql, type Kysely, type MigrationResultSet } from 'kysely';
import { errorCode } from '../http/unavailable';
import { isPostgres } from './columns';
import type { Db } from './index';
import { migrations } from './migrations/index';
import { tendPlannerStatistics } from './planner-statistics';

/**
 * Kysely's migrator checks for its tables by listing every table of every schema (with
 * `pg_get_serial_sequence` per column): a schema, table or column another deployment drops while
 * it lists fails the check though nothing of ours was touched ("schema … does not exist" 3F000,
 * "relation … does not exist" 42P01, "column … does not exist" 42703, seen from a parallel
 * worker). Tried again, but only when no migration of ours had started: the same codes from a
 * migration are its own error.
 */
const catalogRaceAttempts = 5;
const catalogRaceCodes = new Set(['3F000', '42P01', '42703']);

class MigrationFailed extends Error {
  constructor(
    readonly migrationName: string | undefined,
    cause: unknown,
  ) {
    super(`Migration${migrationName ? ` ${migrationName}` : ''} failed`, { cause });
  }
}

/**
 * Runs every pending migration, then tends SQLite's planner statistics (planner-statistics.ts);
 * throws with the failing migration's name and cause.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const applied = await migrateOnce(db);
      await tendPlannerStatistics(db);
      return applied;
    } catch (error) {
      const inCatalogCheck = error instanceof MigrationFailed && !error.migrationName;
      const code = inCatalogCheck ? errorCode(error.cause) : undefined;
      if (code === undefined || !catalogRaceCodes.has(code) || attempt >= catalogRaceAttempts)
        throw error;
    }
  }
}

async function migrateOnce(db: Db): Promise<string[]> {
  // Migrations spell snake_case names themselves, so they run without CamelCasePlugin.
  const plain = db.withoutPlugins();
  // Kysely looks for its migration tables in every schema unless told which one: a database
  // holding another deployment's schema (or a test's) would make it skip creating its own.
  const schema = isPostgres(plain as Kysely<unknown>)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(plain)).rows[0]
        ?.schema
    : undefined;
  const migrator = new Migrator({
    db: plain,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  const failed = result.results?.find((r) => r.status === 'Error');
  if (result.error !== undefined) throw new MigrationFailed(failed?.migrationName, result.error);
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
