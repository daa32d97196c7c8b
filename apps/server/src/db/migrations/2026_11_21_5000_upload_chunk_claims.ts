import { notNull, timestamp, type MigrationDb } from '../columns';

/**
 * Who is writing a chunk right now, across instances: one writer per chunk, or a second send of
 * it could land other bytes over those being hashed (DESIGN 6). A row is a claim; a claim older
 * than any request may take is taken over.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('upload_chunk_claims')
    .addColumn('session_id', 'integer', (c) =>
      c.notNull().references('upload_sessions.id').onDelete('cascade'),
    )
    .addColumn('idx', 'integer', notNull)
    .addColumn('token', 'text', notNull)
    .addColumn('claimed_at', timestamp, notNull)
    .addPrimaryKeyConstraint('upload_chunk_claims_pk', ['session_id', 'idx'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('upload_chunk_claims').execute();
}
