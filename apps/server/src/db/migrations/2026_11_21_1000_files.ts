import { sql } from 'kysely';
import { isPostgres, notNull, timestamp, withId, type MigrationDb } from '../columns';

/** File library, content-addressed blobs and upload sessions (DESIGN 6). */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('file_blobs'))
    .addColumn('sha256', 'text', (c) => c.notNull().unique())
    .addColumn('md5', 'text', notNull)
    .addColumn('size', 'bigint', notNull)
    .addColumn('storage_key', 'text', notNull)
    .addColumn('ref_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('file_blobs_md5_idx')
    .on('file_blobs')
    .columns(['md5', 'size'])
    .execute();
  await db.schema
    .createIndex('file_blobs_unreferenced_idx')
    .on('file_blobs')
    .columns(['ref_count'])
    .execute();

  await withId(db, db.schema.createTable('upload_sessions'))
    .addColumn('owner_type', 'text', notNull)
    .addColumn('owner_id', 'integer', notNull)
    .addColumn('library', 'text', notNull)
    .addColumn('md5', 'text', notNull)
    .addColumn('size', 'bigint', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('ext', 'text', notNull)
    .addColumn('chunk_size', 'integer', notNull)
    .addColumn('chunks', 'integer', notNull)
    .addColumn('staging_key', 'text', notNull)
    .addColumn('staging_upload_id', 'text')
    // hash-wasm MD5 state (base64) after the first `hashed_chunks` chunks, so any instance continues it.
    .addColumn('md5_state', 'text')
    .addColumn('hashed_chunks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .addUniqueConstraint('upload_sessions_key', [
      'owner_type',
      'owner_id',
      'library',
      'md5',
      'size',
      'name',
    ])
    .execute();
  await db.schema
    .createIndex('upload_sessions_updated_idx')
    .on('upload_sessions')
    .column('updated_at')
    .execute();

  await db.schema
    .createTable('upload_chunks')
    .addColumn('session_id', 'integer', (c) =>
      c.notNull().references('upload_sessions.id').onDelete('cascade'),
    )
    .addColumn('idx', 'integer', notNull)
    .addColumn('size', 'integer', notNull)
    .addColumn('etag', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('upload_chunks_pk', ['session_id', 'idx'])
    .execute();

  // Finished uploads not yet filed into the library by `save`; each holds one blob reference.
  await withId(db, db.schema.createTable('uploads'))
    .addColumn('owner_type', 'text', notNull)
    .addColumn('owner_id', 'integer', notNull)
    .addColumn('library', 'text', notNull)
    .addColumn('blob_id', 'integer', (c) => c.notNull().references('file_blobs.id'))
    .addColumn('name', 'text', notNull)
    .addColumn('ext', 'text', notNull)
    .addColumn('path', 'text', notNull)
    .addColumn('created_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('uploads_owner_path_idx')
    .on('uploads')
    .columns(['owner_type', 'owner_id', 'library', 'path'])
    .execute();
  await db.schema
    .createIndex('uploads_blob_idx')
    .on('uploads')
    .columns(['blob_id', 'owner_type', 'owner_id'])
    .execute();
  await db.schema.createIndex('uploads_created_idx').on('uploads').column('created_at').execute();

  // `path` is '/<root id>/.../<id>/': descendants are `path LIKE '<path>%'`, served by an index
  // thanks to a collation both dialects can range-scan with LIKE.
  const pathType = isPostgres(db) ? sql`text collate "C"` : sql`text collate nocase`;
  await withId(db, db.schema.createTable('file_categories'))
    .addColumn('owner_type', 'text', notNull)
    .addColumn('owner_id', 'integer', notNull)
    .addColumn('library', 'text', notNull)
    .addColumn('pid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', notNull)
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('path', pathType, notNull)
    // Files filed directly in this category, kept with every change so `list` never counts rows.
    .addColumn('file_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('file_categories_owner_pid_idx')
    .on('file_categories')
    .columns(['owner_type', 'owner_id', 'library', 'pid'])
    .execute();
  await db.schema
    .createIndex('file_categories_owner_path_idx')
    .on('file_categories')
    .columns(['owner_type', 'owner_id', 'library', 'path', 'id', 'file_count'])
    .execute();

  await withId(db, db.schema.createTable('files'))
    .addColumn('owner_type', 'text', notNull)
    .addColumn('owner_id', 'integer', notNull)
    .addColumn('library', 'text', notNull)
    .addColumn('category_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blob_id', 'integer', (c) => c.notNull().references('file_blobs.id'))
    .addColumn('name', 'text', notNull)
    .addColumn('ext', 'text', notNull)
    .addColumn('size', 'bigint', notNull)
    .addColumn('path', 'text', notNull)
    .addColumn('created_at', timestamp, notNull)
    .execute();
  // `list` of one category: newest first straight off this index.
  await db.schema
    .createIndex('files_owner_category_idx')
    .on('files')
    .columns(['owner_type', 'owner_id', 'library', 'category_id', 'id'])
    .execute();
  // `list` of the root or a large subtree: newest first over the whole library, category checked from the index.
  await db.schema
    .createIndex('files_owner_id_idx')
    .on('files')
    .columns(['owner_type', 'owner_id', 'library', 'id', 'category_id'])
    .execute();
  await db.schema
    .createIndex('files_blob_idx')
    .on('files')
    .columns(['blob_id', 'owner_type', 'owner_id'])
    .execute();
  await db.schema
    .createIndex('files_owner_path_idx')
    .on('files')
    .columns(['owner_type', 'owner_id', 'library', 'path'])
    .execute();

  await db.schema
    .createTable('file_library_stats')
    .addColumn('owner_type', 'text', notNull)
    .addColumn('owner_id', 'integer', notNull)
    .addColumn('library', 'text', notNull)
    .addColumn('file_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('file_library_stats_pk', ['owner_type', 'owner_id', 'library'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of [
    'file_library_stats',
    'files',
    'file_categories',
    'uploads',
    'upload_chunks',
    'upload_sessions',
    'file_blobs',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
