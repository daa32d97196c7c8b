import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from '../columns';

/**
 * Chat messages are indexed for search a moment after their text changes, not inside the change
 * (issue 32, goal 4), on SQLite: an answer's end or an ended message's new text names the message
 * in `chat_message_fts_pending`, and `features/chat/streaming/fts-queue-sql.mjs` indexes the queue
 * in steps, beside the event loop and before every search. Trigram indexing costs about 0.2 ms an
 * answer; at 1,000 answers ending within a second that was most of their end, on the connection
 * of the event loop. Inserted rows (a question, an import) are still indexed as they are written;
 * a deleted message's entry still goes at once (a missing one is no error for FTS5), and the
 * queue's step skips messages deleted or streaming again. PostgreSQL's GIN index is its own.
 */
const span = sql.raw('16777216');
const memberOf = (conversation: string) =>
  sql.raw(`(select c.member_id from chat_conversations c where c.id = ${conversation})`);

/** When an update of a message changes what the index holds of it. */
const changesIndex = sql`when (old.status <> 'streaming' or new.status <> 'streaming')
  and (old.content is not new.content or (old.status = 'streaming') <> (new.status = 'streaming'))`;
const dropOld = sql`delete from chat_message_fts
  where rowid = old.id * ${span} + ${memberOf('old.conversation_id')}
    and old.status <> 'streaming';`;

export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create table chat_message_fts_pending (message_id integer primary key)`.execute(db);
  await sql`drop trigger chat_message_fts_update`.execute(db);
  await sql`create trigger chat_message_fts_update after update of content, status on chat_messages
    ${changesIndex}
    begin
      ${dropOld}
      insert or ignore into chat_message_fts_pending (message_id)
        select new.id where new.status <> 'streaming';
    end`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  // What is still waiting is indexed first: nothing goes unfound.
  await sql`insert into chat_message_fts (rowid, body)
    select m.id * ${span} + c.member_id, m.content
    from chat_message_fts_pending p join chat_messages m on m.id = p.message_id
      join chat_conversations c on c.id = m.conversation_id
    where m.status <> 'streaming' order by m.id`.execute(db);
  await sql`drop table chat_message_fts_pending`.execute(db);
  await sql`drop trigger chat_message_fts_update`.execute(db);
  await sql`create trigger chat_message_fts_update after update of content, status on chat_messages
    ${changesIndex}
    begin
      ${dropOld}
      insert into chat_message_fts (rowid, body)
        select new.id * ${span} + ${memberOf('new.conversation_id')}, new.content
        where new.status <> 'streaming';
    end`.execute(db);
}
