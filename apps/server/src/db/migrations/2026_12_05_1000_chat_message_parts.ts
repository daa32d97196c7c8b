import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from '../columns';

/**
 * The text of answers being streamed, as the group commit appends it (issue 32, goal 4): one row
 * per answer per write, `(message_id, seq, text)`, folded into `chat_messages.content` about once
 * a second by the answer's writer and at its end (features/chat/streaming/append-sql.mjs). An
 * append used to rewrite each answer's whole row, so a write cost what the answers held, not what
 * they gained (on SQLite every rewritten page went to the WAL again, and the thread writing them
 * spent half a core at 1,000 answers).
 *
 * - SQLite: a plain rowid table without an index, so an append is a write at the table's end
 *   (a few pages for a thousand answers); it holds about a second of text, which a reader of a
 *   streaming answer scans.
 * - PostgreSQL: a serial key and an index by message (its B-tree inserts cost little there).
 * No foreign key: a part outliving its message (deleted while streaming) is removed by the next
 * fold.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`create table chat_message_parts (
      id bigserial primary key,
      message_id bigint not null,
      seq integer not null,
      text text not null
    )`.execute(db);
    await sql`create index chat_message_parts_message_idx
      on chat_message_parts (message_id)`.execute(db);
    return;
  }
  await sql`create table chat_message_parts (
    message_id integer not null,
    seq integer not null,
    text text not null
  )`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table chat_message_parts`.execute(db);
}
