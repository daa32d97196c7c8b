import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteFileOf } from '../../../db/index';
import { createTestDb, type TestDb } from '../../../testing/db';
import type { ChatDb } from '../chat.tables';
import { insertBareAnswer } from '../chat.testing';
import { AnswerRepository } from './answers.repository';
import { AppendThread } from './append-thread';
import { WriteGate } from '../../../db/sqlite-write-gate';

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
    // The fold and the sweep run there too, in a tick: the row holds the text, and no part is
    // left.
    const tick = repo.tick({
      appends: [],
      again: false,
      writer: 'w',
      folds: [{ id: mine, text: 'Hi, hello wörld', seq: 2 }],
      now: 8,
      sweep: { after: 0, limit: 10 },
      index: false,
    });
    expect(await tick.written).toEqual(new Set());
    expect(await tick.tidied).toMatchObject({ fold: { value: undefined }, sweep: { value: 2 } });
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

  it('fails the writes of a thread that cannot open its connection within the start-up bound, not after SQLite gives up', async () => {
    // A database another connection holds exclusively (rollback journal): the thread's first
    // statement waits in SQLite's busy handler (3 s), where a thread cannot be ended from outside.
    const folder = mkdtempSync(join(tmpdir(), 'atrium-append-'));
    const holder = new SQLite(join(folder, 'held.db'));
    holder.exec('create table t (x); begin exclusive; insert into t values (1)');
    try {
      thread = new AppendThread({
        file: join(folder, 'held.db'),
        busyTimeoutMs: 3_000,
        writeTimeoutMs: 100,
        startupMs: 300,
      });
      const started = performance.now();
      const tick = thread.tick({
        rows: ['[]'],
        writer: 'w',
        again: false,
        folds: [],
        now: 1,
        sweep: null,
        index: null,
      });
      await expect(tick.written).rejects.toThrow(/did not start in 300 ms/);
      await expect(tick.tidied).rejects.toThrow(/did not start in 300 ms/);
      expect(performance.now() - started).toBeLessThan(2_500);
    } finally {
      holder.exec('rollback');
      holder.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses writes once closed', async () => {
    const repo = await threadOn(10_000);
    const id = await streamingRow('w');
    await repo.appendContent([{ id, text: '!', seq: 1 }], 'w');
    await repo.close();
    await expect(repo.appendContent([{ id, text: '?', seq: 2 }], 'w')).rejects.toThrow(/closed/);
    const tick = repo.tick({
      appends: [],
      again: false,
      writer: 'w',
      folds: [{ id, text: 'Hi?', seq: 2 }],
      now: 7,
      index: true,
    });
    await expect(tick.written).rejects.toThrow(/closed/);
    await expect(tick.tidied).rejects.toThrow(/closed/);
    expect(await contentOf(id)).toBe('Hi!');
  });

  it('runs a tick in one turn to write: the appends answered first, then the steps after them; none after appends that fail', async () => {
    const file = await sqliteFileOf(testDb.db);
    if (!file) throw new Error('the test database is not a file');
    const gate = new WriteGate(5_000);
    thread = new AppendThread({ file, busyTimeoutMs: 5_000, writeTimeoutMs: 10_000, gate });
    const repo = new AnswerRepository(chat, thread);
    const id = await streamingRow('w');
    const steps = {
      again: false,
      writer: 'w',
      now: 8,
      sweep: { after: 0, limit: 10 },
      index: true,
    };
    const tick = repo.tick({
      ...steps,
      appends: [{ id, text: ' there', seq: 1 }],
      folds: [{ id, text: 'Hi there', seq: 1 }],
    });
    const order: string[] = [];
    await Promise.all([
      tick.written.then(() => order.push('written')),
      tick.tidied.then(() => order.push('tidied')),
    ]);
    expect(order).toEqual(['written', 'tidied']);
    expect(await tick.tidied).toMatchObject({ fold: { value: undefined }, index: { value: true } });
    expect(await contentOf(id)).toBe('Hi there');
    expect(await chat.selectFrom('chatMessageParts').selectAll().execute()).toEqual([]);
    // The turn was given back once the steps were done.
    await gate.run(() => Promise.resolve());

    // Rows the statement cannot read: the appends fail, and no step is taken.
    const failing = thread.tick({
      rows: ['not json'],
      writer: 'w',
      again: false,
      folds: [JSON.stringify([[id, 'Hi there!', 2]])],
      now: 9,
      sweep: { after: 0, limit: 10 },
      index: 50,
    });
    await expect(failing.written).rejects.toThrow();
    expect(await failing.tidied).toEqual({});
    expect(await contentOf(id)).toBe('Hi there');
    await gate.run(() => Promise.resolve());
  });
});
