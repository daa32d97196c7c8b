import { notNull, timestamp, type MigrationDb } from '../columns';

/**
 * The library's trash (issue 17): a deleted file moves here with its id, category, address and
 * blob reference, is restored from here to where it was, and leaves for good when the trash is
 * emptied or after the upload settings' `trashDays`. The listing queries never see it (a table of
 * its own keeps them as they are). Its address is not served while it is here.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('trashed_files')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('owner_type', 'text', notNull)
    .addColumn('owner_id', 'integer', notNull)
    .addColumn('library', 'text', notNull)
    .addColumn('category_id', 'integer', notNull)
    .addColumn('blob_id', 'integer', (c) => c.notNull().references('file_blobs.id'))
    .addColumn('name', 'text', notNull)
    .addColumn('ext', 'text', notNull)
    .addColumn('size', 'bigint', notNull)
    .addColumn('path', 'text', notNull)
    .addColumn('created_at', timestamp, notNull)
    .addColumn('deleted_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('trashed_files_owner_idx')
    .on('trashed_files')
    .columns(['owner_type', 'owner_id', 'library', 'deleted_at', 'id'])
    .execute();
  await db.schema
    .createIndex('trashed_files_deleted_idx')
    .on('trashed_files')
    .column('deleted_at')
    .execute();
  await db.schema
    .createIndex('trashed_files_blob_idx')
    .on('trashed_files')
    .columns(['blob_id', 'owner_type', 'owner_id'])
    .execute();
  await db.schema
    .createIndex('trashed_files_path_idx')
    .on('trashed_files')
    .column('path')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('trashed_files').execute();
}
