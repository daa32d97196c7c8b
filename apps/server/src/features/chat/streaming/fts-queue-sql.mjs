// @ts-check
// The full-text index of chat messages on SQLite (migration 2026_12_07_1000): an update that
// ends an answer or changes an ended message's text names the message in
// `chat_message_fts_pending` instead of indexing its text there and then. Trigram indexing of an
// answer's text costs about 0.2 ms, and a thousand answers ending within a second spent most of
// their end in it, on the writer's connection. These statements index the pending messages, a
// step at a time: on the answers' writer thread after their ends (append.worker.mjs), and before
// a search reads the index (`indexQueuedMessages`, answers.repository.ts), so a search always
// sees every message.
// Shared by the instance's connection and that thread, hence plain JavaScript.

/** A row's rowid in the FTS tables is id * span + member_id (migration 2026_11_30_2000). */
const span = 16777216;

/** The first `limit` pending messages, in id order (the FTS index takes ascending rowids best). */
const step = `select message_id from chat_message_fts_pending order by message_id limit ?`;

/**
 * `index` indexes the text of a step's messages that still exist and have ended; `clear` then
 * drops the step from the queue. Both take the step's size, and run in one transaction: the
 * same messages, since no other writer comes between.
 */
export const ftsQueueSql = {
  index: `insert into chat_message_fts (rowid, body)
    select m.id * ${span} + c.member_id, m.content
    from chat_messages m join chat_conversations c on c.id = m.conversation_id
    where m.id in (${step}) and m.status <> 'streaming'
    order by m.id`,
  clear: `delete from chat_message_fts_pending where message_id in (${step})`,
};

/**
 * Messages one step indexes: a few milliseconds of the writer's connection. A step holds the
 * writes of the tick it follows (on the thread, the next tick waits for it): a thousand answers
 * of 300 tokens ending together took 20 ms a step of 50, up to 66 ms, and the tokens of the
 * answers still streaming waited as long.
 */
export const INDEX_STEP = 10;
