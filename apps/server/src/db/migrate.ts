import { Migrator, sql, type Kysely, type MigrationResultSet } from 'kysely';
import { isPostgres } from './columns';
import type { Db } from './index';
import { migrations } from './migrations/index';

/**
 * Kysely's migrator checks for its tables by listing every table of every schema (with
 * `pg_get_serial_sequence` per column): a schema another deployment drops while it lists fails
 * the check ("schema … does not exist", 3F000) though nothing of ours was touched. Tried again.
 */
const catalogRaceAttempts = 5;

/** Runs every pending migration; throws with the failing migration's name and cause. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await migrateOnce(db);
    } catch (error) {
      const cause =
        error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
      if (cause?.code !== '3F000' || attempt >= catalogRaceAttempts) throw error;
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
  if (result.error !== undefined) {
    const name = failed ? ` ${failed.migrationName}` : '';
    throw new Error(`Migration${name} failed`, { cause: result.error });
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
