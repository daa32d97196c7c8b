import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteFileOf } from '../../../db/index';
import { createTestDb, type TestDb } from '../../../testing/db';
import type { ChatDb } from '../chat.tables';
import { insertBareAnswer } from '../chat.testing';
import { AnswerRepository } from './answers.repository';
import { AppendThread } from './append-thread';

let testDb: TestDb;
let chat: ChatDb;
let thread: AppendThread | undefined;

beforeEach(async () => {
  testDb = await createTestDb('sqlite');
  chat = testDb.db as unknown as ChatDb;
  // Bare rows: their conversations, members and rooms play no part here.
  await sql`pragma foreign_keys = off`.execute(testDb.db);
});
afterEach(async () => {
  await thread?.close();
  thread = undefined;
  await testDb.cleanup();
});

const streamingRow = (writer: string) => insertBareAnswer(chat, { writer });

async function threadOn(writeTimeoutMs: number): Promise<AnswerRepository> {
  const file = await sqliteFileOf(testDb.db);
  if (!file) throw new Error('the test database is not a file');
  thread = new AppendThread({ file, busyTimeoutMs: 5_000, writeTimeoutMs });
  return new AnswerRepository(chat, thread);
}

/** The message's whole stored text, as the instance's connection reads it. */
const contentOf = async (id: number) => (await new AnswerRepository(chat).findMessage(id))?.content;

describe('the answers writer thread (SQLite)', () => {
  it("appends on its own connection what the instance's connection then reads", async () => {
    const repo = await threadOn(10_000);
    const [mine, theirs] = [await streamingRow('w'), await streamingRow('other')];
    expect(
      await repo.appendContent(
        [
          { id: mine, text: ', hello', seq: 1 },
          { id: theirs, text: 'no', seq: 1 },
        ],
        'w',
      ),
    ).toEqual(new Set([mine]));
    expect(await repo.appendContent([{ id: mine, text: ' wörld', seq: 2 }], 'w')).toEqual(
      new Set([mine]),
    );
    // Tried again after a failure the caller saw: not doubled.
    await repo.appendContent([{ id: mine, text: ' wörld', seq: 2 }], 'w', true);
    expect(await contentOf(mine)).toBe('Hi, hello wörld');
    expect(await contentOf(theirs)).toBe('Hi');
    // The fold and the sweep run there too: the row holds the text, and no part is left.
    await repo.foldAnswers([{ id: mine, text: 'Hi, hello wörld', seq: 2 }], 'w', 8);
    expect(await repo.sweepParts(0, 10)).toBeGreaterThan(0);
    const row = await chat
      .selectFrom('chatMessages')
      .select(['content', 'seq', 'updatedAt'])
      .where('id', '=', mine)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ content: 'Hi, hello wörld', seq: 2, updatedAt: 8 });
    expect(await chat.selectFrom('chatMessageParts').selectAll().execute()).toEqual([]);
  });

  it('gives up a write stuck behind the write lock within its bound; the next write starts a new thread', async () => {
    // The given-up write still commits once the lock goes (a thread cannot be stopped inside
    // SQLite's wait): tried again as it was, under its seq, it is kept once.
    const repo = await threadOn(300);
    const id = await streamingRow('w');
    await testDb.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const started = performance.now();
        await expect(repo.appendContent([{ id, text: ' stuck', seq: 1 }], 'w')).rejects.toThrow(
          /took over 300 ms/,
        );
        expect(performance.now() - started).toBeLessThan(3_000);
      } finally {
        await sql`rollback`.execute(conn);
      }
    });
    expect(await repo.appendContent([{ id, text: ' stuck', seq: 1 }], 'w', true)).toEqual(
      new Set([id]),
    );
    expect(await contentOf(id)).toBe('Hi stuck');
    expect(await repo.appendContent([{ id, text: ' then', seq: 2 }], 'w')).toEqual(new Set([id]));
    expect(await contentOf(id)).toBe('Hi stuck then');
  });

  it('refuses writes once closed', async () => {
    const repo = await threadOn(10_000);
    const id = await streamingRow('w');
    await repo.appendContent([{ id, text: '!', seq: 1 }], 'w');
    await repo.close();
    await expect(repo.appendContent([{ id, text: '?', seq: 2 }], 'w')).rejects.toThrow(/closed/);
    await expect(repo.foldAnswers([{ id, text: 'Hi?', seq: 2 }], 'w', 7)).rejects.toThrow(/closed/);
    await expect(repo.sweepParts(0, 10)).rejects.toThrow(/closed/);
    expect(await contentOf(id)).toBe('Hi!');
  });
});
