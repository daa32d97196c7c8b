import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { chatDb } from '../../features/chat/chat.tables';
import { insertBareAnswer } from '../../features/chat/chat.testing';
import { indexQueuedMessages } from '../../features/chat/streaming/index';
import { testDbPerTest } from '../../testing/db';
import type { MigrationDb } from '../columns';
import type { Db } from '../index';
import { down, up } from './2026_12_07_1000_chat_fts_pending';

const tests = testDbPerTest();

/** Ids of the messages the FTS index finds for `word` (rowid = id * 16777216 + member). */
async function found(db: Db, word: string): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select rowid / 16777216 as id from chat_message_fts
    where chat_message_fts match ${`"${word}"`} order by rowid`.execute(db);
  return rows.map((r) => Number(r.id));
}
const queued = async (db: Db) =>
  (
    await sql<{ id: number }>`select message_id as id from chat_message_fts_pending
      order by message_id`.execute(db)
  ).rows.map((r) => Number(r.id));

describe('the search index queue of chat messages (SQLite)', () => {
  it("queues an answer's end and an ended message's new text; a step indexes what still stands", async () => {
    const { db } = await tests.open('sqlite');
    await sql`pragma foreign_keys = off`.execute(db);
    await sql`insert into chat_conversations (id, room_id, member_id, title, created_at, updated_at)
      values (1, 1, 7, 'c', 1, 1)`.execute(db);
    const chat = chatDb(db);
    const [ending, edited, gone] = [
      await insertBareAnswer(chat, { content: '' }),
      await insertBareAnswer(chat, { status: 'done', content: 'old walrus' }),
      await insertBareAnswer(chat, { content: '' }),
    ];
    // An inserted ended row is indexed as it is written (a question, an import).
    expect(await found(db, 'walrus')).toEqual([edited]);

    for (const id of [ending, gone]) {
      await sql`update chat_messages set status = 'done', content = ${`narwhal ${String(id)}`},
        writer_instance = null where id = ${id}`.execute(db);
    }
    await sql`update chat_messages set content = 'new octopus' where id = ${edited}`.execute(db);
    // The ends and the edit wait in the queue; the edited row's old text is gone at once.
    expect(await found(db, 'narwhal')).toEqual([]);
    expect(await found(db, 'walrus')).toEqual([]);
    expect(await queued(db)).toEqual([ending, edited, gone]);

    await sql`delete from chat_messages where id = ${gone}`.execute(db);
    expect(await indexQueuedMessages(chat)).toBe(true);
    expect(await queued(db)).toEqual([]);
    expect(await found(db, 'narwhal')).toEqual([ending]);
    expect(await found(db, 'octopus')).toEqual([edited]);
    await sql`insert into chat_message_fts (chat_message_fts, rank) values ('integrity-check', 0)`.execute(
      db,
    );

    // Back down: what waits is indexed first, and an end is indexed as it is written again.
    const later = await insertBareAnswer(chat, { content: '' });
    await sql`update chat_messages set status = 'done', content = 'squid' where id = ${later}`.execute(
      db,
    );
    await down(db as unknown as MigrationDb);
    expect(await found(db, 'squid')).toEqual([later]);
    const last = await insertBareAnswer(chat, { content: '' });
    await sql`update chat_messages set status = 'done', content = 'seal' where id = ${last}`.execute(
      db,
    );
    expect(await found(db, 'seal')).toEqual([last]);
    await up(db as unknown as MigrationDb);
    expect(await queued(db)).toEqual([]);
  });
});
