import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from '../columns';

/**
 * Search over all of a member's conversations (issue 18): message content and conversation
 * titles, each a substring search served by an index.
 *
 * - SQLite: two FTS5 tables with the trigram tokenizer (any substring of 3 or more characters,
 *   case folded, Chinese included), contentless (they store no copy of the text) with
 *   `contentless_delete`, so a row leaves by its rowid alone. A row's rowid is
 *   `id * 2^24 + member_id`: rowid order is id order, so newest first is a backwards walk of the
 *   index that stops after the page, and the member of each match is read off its rowid (no
 *   lookup) and only the member's matches are joined to their rows. (Rowids `member * 2^32 + id`,
 *   each member's rows one range, were measured first: FTS5 does not seek to a rowid range, it
 *   walks the doclist up to it, so the cost grew with the member's place among all members.)
 *   Member ids stay below 2^24 and message ids below 2^39.
 * - Triggers keep both in the writer's transaction, whoever writes. An answer enters the index
 *   when its status leaves 'streaming' (its final text): the many small content writes while it
 *   streams touch no index. Regenerating takes it out (back to 'streaming') until it ends again.
 *   A conversation takes its messages out before it goes (its messages go by the foreign key's
 *   cascade, when the member's row is no longer there to compute the rowid).
 * - PostgreSQL: pg_trgm GIN indexes over `chat_messages.content` (answers being written left
 *   out) and `chat_conversations.title`, serving `ilike '%…%'`. pg_trgm was created by migration
 *   2026_11_29_7000 when it could be; without it the indexes are skipped and search is the same
 *   ILIKE without an index (the server logs that once at start).
 */

export const chatSearchIndexes = {
  content: 'chat_messages_content_trgm_idx',
  title: 'chat_conversations_title_trgm_idx',
} as const;

const triggers = [
  'chat_message_fts_insert',
  'chat_message_fts_update',
  'chat_message_fts_delete',
  'chat_title_fts_insert',
  'chat_title_fts_update',
  'chat_conversation_fts_delete',
];

/** A row's rowid in the FTS tables is id * span + member_id. */
const span = sql.raw('16777216');

export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    const schema = (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
    if (schema === undefined) return;
    await sql`create index ${sql.id(chatSearchIndexes.content)} on chat_messages
      using gin (content ${sql.id(schema)}.gin_trgm_ops) where status <> 'streaming'`.execute(db);
    await sql`create index ${sql.id(chatSearchIndexes.title)} on chat_conversations
      using gin (title ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
    return;
  }

  await sql`create virtual table chat_message_fts using fts5(
    body, content = '', contentless_delete = 1, tokenize = 'trigram'
  )`.execute(db);
  await sql`create virtual table chat_title_fts using fts5(
    title, content = '', contentless_delete = 1, tokenize = 'trigram'
  )`.execute(db);

  const memberOf = (conversation: string) =>
    sql.raw(`(select c.member_id from chat_conversations c where c.id = ${conversation})`);
  await sql`create trigger chat_message_fts_insert after insert on chat_messages
    when new.status <> 'streaming' begin
      insert into chat_message_fts (rowid, body)
        values (new.id * ${span} + ${memberOf('new.conversation_id')}, new.content);
    end`.execute(db);
  // Fires only when the indexed text changes: a streaming answer's content writes, and any
  // update of other columns, cost nothing here.
  await sql`create trigger chat_message_fts_update after update of content, status on chat_messages
    when (old.status <> 'streaming' or new.status <> 'streaming')
      and (old.content is not new.content or (old.status = 'streaming') <> (new.status = 'streaming'))
    begin
      delete from chat_message_fts
        where rowid = old.id * ${span} + ${memberOf('old.conversation_id')}
          and old.status <> 'streaming';
      insert into chat_message_fts (rowid, body)
        select new.id * ${span} + ${memberOf('new.conversation_id')}, new.content
        where new.status <> 'streaming';
    end`.execute(db);
  await sql`create trigger chat_message_fts_delete after delete on chat_messages
    when old.status <> 'streaming' begin
      delete from chat_message_fts
        where rowid = old.id * ${span} + ${memberOf('old.conversation_id')};
    end`.execute(db);
  await sql`create trigger chat_title_fts_insert after insert on chat_conversations begin
      insert into chat_title_fts (rowid, title) values (new.id * ${span} + new.member_id, new.title);
    end`.execute(db);
  await sql`create trigger chat_title_fts_update after update of title on chat_conversations
    when old.title is not new.title begin
      delete from chat_title_fts where rowid = old.id * ${span} + old.member_id;
      insert into chat_title_fts (rowid, title) values (new.id * ${span} + new.member_id, new.title);
    end`.execute(db);
  await sql`create trigger chat_conversation_fts_delete before delete on chat_conversations begin
      delete from chat_message_fts where rowid in (
        select m.id * ${span} + old.member_id from chat_messages m
        where m.conversation_id = old.id and m.status <> 'streaming'
      );
      delete from chat_title_fts where rowid = old.id * ${span} + old.member_id;
    end`.execute(db);

  // Backfill, in rowid order (FTS5 writes one segment per ascending run).
  await sql`insert into chat_message_fts (rowid, body)
    select m.id * ${span} + c.member_id, m.content
    from chat_messages m join chat_conversations c on c.id = m.conversation_id
    where m.status <> 'streaming'
    order by 1`.execute(db);
  await sql`insert into chat_title_fts (rowid, title)
    select id * ${span} + member_id, title from chat_conversations order by 1`.execute(db);
  await sql`insert into chat_message_fts (chat_message_fts) values ('optimize')`.execute(db);
  await sql`insert into chat_title_fts (chat_title_fts) values ('optimize')`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    for (const index of Object.values(chatSearchIndexes))
      await sql`drop index if exists ${sql.id(index)}`.execute(db);
    return;
  }
  for (const trigger of triggers) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists chat_message_fts`.execute(db);
  await sql`drop table if exists chat_title_fts`.execute(db);
}
