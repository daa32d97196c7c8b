import { sql } from 'kysely';
import { isPostgres, notNull, timestamp, withId, type MigrationDb } from '../columns';

/**
 * Library documents as chat context (issue 18, chat-docs feature).
 *
 * - `chat_documents`: the files a conversation holds as context (the usage graph records each
 *   as a `chatDocument` reference held by the conversation, which keeps the file's blob).
 * - `chat_doc_extracts`: reading one stored blob's text, once per blob whoever attaches it: a
 *   job (queued, running on the instance it names while that instance's heartbeat is fresh,
 *   done or failed with the reason), its progress and what it found.
 * - `chat_doc_passages`: the blob's text in passages of about 1,000 characters, with the page.
 *   Searched by words: SQLite has an FTS5 table (contentless, its rows deleted with the passage
 *   by a trigger), PostgreSQL a `tsvector` column with a GIN index. Both index the same terms,
 *   made by the server (passages.ts): words, and Chinese, Japanese and Korean text as
 *   overlapping pairs of characters, so a two-character word is found too (a trigram index
 *   needs three).
 * - `chat_citations`: the passages an answer cites, copied, so they show as they were given.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('chat_documents'))
    .addColumn('conversation_id', 'integer', (c) =>
      c.notNull().references('chat_conversations.id').onDelete('cascade'),
    )
    .addColumn('member_id', 'integer', notNull)
    .addColumn('path', 'text', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('ext', 'text', notNull)
    .addColumn('created_at', timestamp, notNull)
    .addUniqueConstraint('chat_documents_conversation_path_key', ['conversation_id', 'path'])
    .execute();

  await db.schema
    .createTable('chat_doc_extracts')
    // A blob freed by the sweeper (nothing references it) takes what was read of it along.
    .addColumn('blob_id', 'integer', (c) =>
      c.primaryKey().references('file_blobs.id').onDelete('cascade'),
    )
    .addColumn('ext', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('passages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('instance_id', 'text')
    .addColumn('embedding_model', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', timestamp, notNull)
    .addColumn('updated_at', timestamp, notNull)
    .execute();
  await db.schema
    .createIndex('chat_doc_extracts_status_idx')
    .on('chat_doc_extracts')
    .columns(['status', 'updated_at'])
    .execute();

  let passages = withId(db, db.schema.createTable('chat_doc_passages'))
    .addColumn('blob_id', 'integer', (c) =>
      c.notNull().references('chat_doc_extracts.blob_id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', notNull)
    .addColumn('page', 'integer', notNull)
    .addColumn('text', 'text', notNull)
    // Float32 vector from the embedding model, base64; null without one.
    .addColumn('vector', 'text');
  if (isPostgres(db)) passages = passages.addColumn('terms', sql`tsvector`, notNull);
  await passages.execute();
  await db.schema
    .createIndex('chat_doc_passages_blob_idx')
    .on('chat_doc_passages')
    .columns(['blob_id', 'seq'])
    .execute();

  if (isPostgres(db)) {
    await sql`create index chat_doc_passages_terms_idx on chat_doc_passages
      using gin (terms)`.execute(db);
  } else {
    // `tag` holds "#<blob id>#", so a search names the conversation's blobs in the same MATCH
    // and FTS5 intersects the two (it has no other way to filter by a column quickly).
    await sql`create virtual table chat_doc_passages_fts using fts5(
      tag, terms, content = '', contentless_delete = 1,
      tokenize = 'porter unicode61 remove_diacritics 2'
    )`.execute(db);
    await sql`create trigger chat_doc_passages_fts_delete after delete on chat_doc_passages begin
      delete from chat_doc_passages_fts where rowid = old.id;
    end`.execute(db);
  }

  await withId(db, db.schema.createTable('chat_citations'))
    .addColumn('message_id', 'integer', (c) =>
      c.notNull().references('chat_messages.id').onDelete('cascade'),
    )
    .addColumn('n', 'integer', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('path', 'text', notNull)
    .addColumn('page', 'integer', notNull)
    .addColumn('text', 'text', notNull)
    .execute();
  await db.schema
    .createIndex('chat_citations_message_idx')
    .on('chat_citations')
    .columns(['message_id', 'n'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('chat_citations').execute();
  if (!isPostgres(db)) {
    await sql`drop trigger if exists chat_doc_passages_fts_delete`.execute(db);
    await sql`drop table if exists chat_doc_passages_fts`.execute(db);
  }
  await db.schema.dropTable('chat_doc_passages').execute();
  await db.schema.dropTable('chat_doc_extracts').execute();
  await db.schema.dropTable('chat_documents').execute();
}
