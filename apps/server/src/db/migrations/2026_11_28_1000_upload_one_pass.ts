import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from '../columns';

/**
 * Upload in one pass over the bytes (README "Uploads"): the SHA-256 leaves the upload path.
 *
 * - A blob is no longer named by its SHA-256 but by a name of its own (64 hex digits: the SHA-256
 *   for blobs stored before this ran, random after), which also names its storage and thumbnail
 *   keys. Blobs with the same MD5 and size are told apart by comparing their bytes.
 * - A session records the name its verified bytes go to (`verified_blob`), and keeps no SHA-256
 *   state. It counts the chunks it holds and how many are held from chunk 0 without a gap, so a
 *   chunk's record answers both without listing the chunks.
 * - On PostgreSQL the chunk claims are an unlogged table: a claim dies with its process anyway, so
 *   it costs no write-ahead log and no flush, and a chunk costs one durable commit.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('file_blobs').renameColumn('sha256', 'name').execute();
  await db.schema
    .alterTable('upload_sessions')
    .renameColumn('verified_sha256', 'verified_blob')
    .execute();
  await db.schema.alterTable('upload_sessions').dropColumn('sha256_state').execute();
  await db.schema
    .alterTable('upload_sessions')
    .addColumn('held_chunks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('upload_sessions')
    .addColumn('contiguous_chunks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Sessions open now: their counts from the chunks they hold.
  // (Names without underscores read the same with or without a camel-casing plugin.)
  const rows = await sql<{ sid: number; idx: number }>`
    select session_id as sid, idx from upload_chunks order by session_id, idx`.execute(db);
  const held = new Map<number, number[]>();
  for (const row of rows.rows) {
    const list = held.get(Number(row.sid)) ?? [];
    list.push(Number(row.idx));
    held.set(Number(row.sid), list);
  }
  for (const [sessionId, indexes] of held) {
    let contiguous = 0;
    while (indexes[contiguous] === contiguous) contiguous += 1;
    await sql`update upload_sessions set held_chunks = ${indexes.length},
      contiguous_chunks = ${contiguous} where id = ${sessionId}`.execute(db);
  }
  if (isPostgres(db)) await sql`alter table upload_chunk_claims set unlogged`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) await sql`alter table upload_chunk_claims set logged`.execute(db);
  await db.schema.alterTable('upload_sessions').dropColumn('contiguous_chunks').execute();
  await db.schema.alterTable('upload_sessions').dropColumn('held_chunks').execute();
  await db.schema.alterTable('upload_sessions').addColumn('sha256_state', 'text').execute();
  await db.schema
    .alterTable('upload_sessions')
    .renameColumn('verified_blob', 'verified_sha256')
    .execute();
  await db.schema.alterTable('file_blobs').renameColumn('name', 'sha256').execute();
}
