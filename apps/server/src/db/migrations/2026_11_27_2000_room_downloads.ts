import type { MigrationDb } from '../columns';

/** A room's downloads (SPEC 2.5's Files field in use): a JSON list of paths, none by default. */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('chat_rooms')
    .addColumn('downloads', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('chat_rooms').dropColumn('downloads').execute();
}
