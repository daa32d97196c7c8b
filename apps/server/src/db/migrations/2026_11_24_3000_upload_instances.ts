import { sql } from 'kysely';
import type { MigrationDb } from '../columns';

/**
 * DESIGN 2: what an upload holds names the instance holding it, so a crashed instance's chunk
 * claims and finish lease are taken over a few seconds after its heartbeat stops instead of after
 * minutes; the running SHA-256 is saved beside the MD5 so any instance continues both; and a
 * session records its verified content address before the bytes move there, so a finish cut
 * short by a crash is completed on the next try.
 */
export async function up(db: MigrationDb): Promise<void> {
  // Claims made before this ran belong to processes that no longer run (or hold no instance).
  await sql`delete from upload_chunk_claims`.execute(db);
  await db.schema
    .alterTable('upload_chunk_claims')
    .addColumn('instance_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // Who recorded a chunk: its hash is folded by that instance while it lives.
  await db.schema
    .alterTable('upload_chunks')
    .addColumn('instance_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // The holder of the finish lease while `status` is 'finishing'.
  await db.schema.alterTable('upload_sessions').addColumn('instance_id', 'text').execute();
  await db.schema.alterTable('upload_sessions').addColumn('sha256_state', 'text').execute();
  await db.schema.alterTable('upload_sessions').addColumn('verified_sha256', 'text').execute();
  // The orphan sweep asks which staging objects sessions still use.
  await db.schema
    .createIndex('upload_sessions_staging_idx')
    .on('upload_sessions')
    .column('staging_key')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('upload_sessions_staging_idx').execute();
  for (const column of ['verified_sha256', 'sha256_state', 'instance_id']) {
    await db.schema.alterTable('upload_sessions').dropColumn(column).execute();
  }
  await db.schema.alterTable('upload_chunks').dropColumn('instance_id').execute();
  await db.schema.alterTable('upload_chunk_claims').dropColumn('instance_id').execute();
}
