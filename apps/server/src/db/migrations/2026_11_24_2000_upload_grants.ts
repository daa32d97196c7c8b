import { notNull, timestamp, type MigrationDb } from '../columns';

/**
 * Tokens that opened an upload and may go on sending it after the page rotated them away
 * (DESIGN 4): WebUploader keeps the headers it was created with. A row lets the token's hash
 * send `init` and chunks of that one file, while it is used and its session lives; it goes with
 * the session.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('upload_grants')
    .addColumn('token_hash', 'text', notNull)
    .addColumn('session_id', 'integer', (c) =>
      c.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('library', 'text', notNull)
    .addColumn('md5', 'text', notNull)
    .addColumn('size', 'bigint', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('used_at', timestamp, notNull)
    .addPrimaryKeyConstraint('upload_grants_pk', ['token_hash', 'library', 'md5', 'size', 'name'])
    .execute();
  await db.schema
    .createIndex('upload_grants_session_idx')
    .on('upload_grants')
    .columns(['session_id', 'used_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('upload_grants').execute();
}
