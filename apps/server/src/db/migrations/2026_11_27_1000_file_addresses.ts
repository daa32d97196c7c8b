import type { MigrationDb } from '../columns';

/**
 * Every upload gets a random public address of its own (DESIGN 6), so `GET /data/...` finds the
 * file or unsaved upload recorded at that exact path instead of reading a content hash out of it.
 * Existing rows keep their content addresses and are found the same way.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.createIndex('files_path_idx').on('files').column('path').execute();
  await db.schema.createIndex('uploads_path_idx').on('uploads').column('path').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('uploads_path_idx').execute();
  await db.schema.dropIndex('files_path_idx').execute();
}
