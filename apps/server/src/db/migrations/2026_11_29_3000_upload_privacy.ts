import { sql } from 'kysely';
import { flag, type MigrationDb } from '../columns';

/**
 * Private by default (issue 17, README "What the MD5 covers"): an image uploaded to a library
 * that does not keep originals is stored without its GPS, device and time metadata, so a blob's
 * stored bytes may differ from the bytes the client sent.
 *
 * - `size` stays the size of the stored bytes (what `path` serves and the library lists);
 *   `sent_size` is the size of the bytes the client sent, and with `md5` (always the client's)
 *   it is what instant upload and de-duplication look blobs up by. Blobs stored before this ran
 *   hold what was sent: `sent_size` = `size`.
 * - `stripped` says the stored bytes are the client's minus their privacy metadata, so instant
 *   upload into a library that keeps originals never answers with a stripped copy, nor the
 *   reverse.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('file_blobs')
    .addColumn('sent_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('file_blobs').addColumn('stripped', 'integer', flag).execute();
  await sql`update file_blobs set sent_size = size`.execute(db);
  await db.schema.dropIndex('file_blobs_md5_idx').execute();
  await db.schema
    .createIndex('file_blobs_sent_idx')
    .on('file_blobs')
    .columns(['md5', 'sent_size'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('file_blobs_sent_idx').execute();
  await db.schema
    .createIndex('file_blobs_md5_idx')
    .on('file_blobs')
    .columns(['md5', 'size'])
    .execute();
  await db.schema.alterTable('file_blobs').dropColumn('stripped').execute();
  await db.schema.alterTable('file_blobs').dropColumn('sent_size').execute();
}
