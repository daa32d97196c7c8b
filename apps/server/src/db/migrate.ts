import { Migrator, type MigrationResultSet } from 'kysely';
import type { Db } from './index';
import { migrations } from './migrations/index';

/** Runs every pending migration; throws with the failing migration's name and cause. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // Migrations spell snake_case names themselves, so they run without CamelCasePlugin.
  const migrator = new Migrator({
    db: db.withoutPlugins(),
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
