import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../../bus/memory';
import { sqliteFileOf } from '../../../db/index';
import { createTestDb, type TestDb } from '../../../testing/db';
import type { ChatDb } from '../chat.tables';
import {
  AnswerRepository,
  AppendThread,
  Job,
  type GenerationRequest,
  type JobEvent,
} from '../streaming/index';
import { insertBareAnswer } from '../chat.testing';
import { AnswerFlusher, foldsDue } from './answer-flusher';

let testDb: TestDb;
let thread: AppendThread | undefined;

beforeEach(async () => {
  testDb = await createTestDb('sqlite');
  // A bare row: its conversation, member and room play no part here.
  await sql`pragma foreign_keys = off`.execute(testDb.db);
});
afterEach(async () => {
  await thread?.close();
  thread = undefined;
  await testDb.cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answers' writer thread on the test database's file (closed after each test). */
async function threadOn(writeTimeoutMs = 5_000): Promise<AppendThread> {
  const file = await sqliteFileOf(testDb.db);
  if (!file) throw new Error('the test database is not a file');
  thread = new AppendThread({ file, busyTimeoutMs: 5_000, writeTimeoutMs });
  return thread;
}

const streamingRow = (chat: ChatDb) => insertBareAnswer(chat, { content: '' });

function flusherOf(
  chat: ChatDb,
  jobs: Job | Job[],
  timing: { retryMs: number; foldMs: number; tickMs?: number },
  repo = new AnswerRepository(chat, thread),
) {
  return new AnswerFlusher({
    repo,
    bus: createMemoryBus(),
    log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger,
    now: Date.now,
    instanceId: 'w',
    jobs: new Map([jobs].flat().map((job) => [job.messageId, job])),
    tickMs: 20,
    ...timing,
  });
}

const jobOf = (id: number) =>
  new Job({ messageId: id, params: {} } as unknown as GenerationRequest);

describe('the group commit of streamed text', () => {
  it('tries a failed write again exactly as it was, so text that came since is not lost when the failed one had committed', async () => {
    const chat = testDb.db as unknown as ChatDb;
    const id = await streamingRow(chat);
    // A write waiting for the lock longer than 300 ms is given up, though it commits later.
    await threadOn(300);
    const job = jobOf(id);
    const shown: JobEvent[] = [];
    job.listeners.add((event) => shown.push(event));
    const flusher = flusherOf(chat, job, { retryMs: 1_000, foldMs: 60_000 });

    await testDb.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        flusher.append(job, 'one');
        // The write is given up at 300 ms and tried again at 1.3 s; meanwhile more text comes,
        // and the lock goes: the given-up write commits 'one'.
        await sleep(600);
        flusher.append(job, ' two');
      } finally {
        await sql`rollback`.execute(conn);
      }
    });
    await expect.poll(() => job.stored, { timeout: 10_000 }).toBe('one two'.length);

    const row = await new AnswerRepository(chat).findMessage(job.messageId);
    expect(row?.content).toBe('one two');
    // What was shown is what is stored, delta by delta.
    expect(shown).toEqual([
      { t: 'd', seq: 1, offset: 0, text: 'one' },
      { t: 'd', seq: 2, offset: 3, text: ' two' },
    ]);
    expect(Number(row?.seq)).toBe(2);
  });

  it("writes parts until an answer's fold is due, then folds its text into its row and sweeps the parts", async () => {
    const chat = testDb.db as unknown as ChatDb;
    await threadOn();
    const rowText = async (job: Job) =>
      (
        await chat
          .selectFrom('chatMessages')
          .select('content')
          .where('id', '=', job.messageId)
          .executeTakeFirstOrThrow()
      ).content;
    const parts = async () =>
      (await chat.selectFrom('chatMessageParts').selectAll().execute()).length;
    // A fold a minute away: the text is written as a part, which every read adds; the row
    // itself is not rewritten.
    const first = jobOf(await streamingRow(chat));
    flusherOf(chat, first, { retryMs: 1_000, foldMs: 60_000 }).append(first, 'one');
    await expect.poll(() => first.stored).toBe(3);
    expect(await rowText(first)).toBe('');
    expect(await parts()).toBe(1);
    expect((await new AnswerRepository(chat).findMessage(first.messageId))?.content).toBe('one');
    // A fold due at once: after its write the row has its text, and the sweep leaves only the
    // parts a read needs (the other writer's answer's, not yet folded).
    const second = jobOf(await streamingRow(chat));
    const flusher = flusherOf(chat, second, { retryMs: 1_000, foldMs: 0 });
    flusher.append(second, 'two');
    await expect.poll(() => rowText(second)).toBe('two');
    flusher.append(second, ' three');
    await expect.poll(() => rowText(second)).toBe('two three');
    await expect.poll(parts).toBe(1);
    expect(await rowText(first)).toBe('');
    // Once the first answer ends with its whole text, its part goes with the next sweep, and
    // its text enters the search index, both beside the writes (no search asked for it).
    await sql`insert into chat_conversations (id, room_id, member_id, title, created_at, updated_at)
      values (1, 1, 7, 'c', 1, 1)`.execute(testDb.db);
    await new AnswerRepository(chat).finishMessage(first.messageId, 'w', {
      status: 'done',
      content: 'one walrus',
      seq: 1,
    });
    const indexed = async () =>
      (
        await sql<{ id: number }>`select rowid / 16777216 as id from chat_message_fts
          where chat_message_fts match '"walrus"'`.execute(testDb.db)
      ).rows.map((r) => Number(r.id));
    expect(await indexed()).toEqual([]);
    flusher.tidy();
    await expect.poll(parts).toBe(0);
    await expect.poll(indexed).toEqual([first.messageId]);
    await flusher.running;
  });
});

describe('the tick', () => {
  it("writes an answer's first text as soon as the write under way is done, and its next with the tick", async () => {
    const chat = testDb.db as unknown as ChatDb;
    await threadOn();
    const [streaming, starting] = [
      jobOf(await streamingRow(chat)),
      jobOf(await streamingRow(chat)),
    ];
    // A long tick: a write every 1.5 s at most, but for an answer's first text (long enough that
    // a loaded machine's slow writes and late polls stay well within it).
    const flusher = flusherOf(chat, [streaming, starting], {
      retryMs: 1_000,
      foldMs: 60_000,
      tickMs: 1_500,
    });
    flusher.append(streaming, 'one');
    await expect.poll(() => streaming.stored).toBe(3);
    const written = performance.now();
    flusher.append(streaming, ' two');
    flusher.append(starting, 'first');
    await expect.poll(() => starting.stored, { timeout: 500 }).toBe(5);
    expect(performance.now() - written).toBeLessThan(500);
    // The first write of the answer starting took the other's waiting text with it; what comes
    // now waits for the tick.
    expect(streaming.stored).toBe('one two'.length);
    flusher.append(streaming, ' three');
    flusher.append(starting, ' second');
    await sleep(300);
    expect([streaming.stored, starting.stored]).toEqual(['one two'.length, 5]);
    await expect.poll(() => starting.stored, { timeout: 3_000 }).toBe('first second'.length);
    expect(streaming.stored).toBe('one two three'.length);
    await flusher.running;
  });
});

describe('the steps between writes', () => {
  it('wait for the next write or end once one has failed, rather than failing every tick', async () => {
    const chat = testDb.db as unknown as ChatDb;
    const writer = await threadOn();
    const repo = new AnswerRepository(chat, writer);
    const ticks: boolean[] = [];
    const tick = repo.tick.bind(repo);
    repo.tick = (asked) => {
      ticks.push(asked.appends.length > 0);
      return tick(asked);
    };
    const job = jobOf(await streamingRow(chat));
    const flusher = flusherOf(chat, job, { retryMs: 1_000, foldMs: 60_000, tickMs: 10 }, repo);
    flusher.append(job, 'one');
    await expect.poll(() => job.stored).toBe(3);
    await flusher.running;
    // The thread is gone (the instance closing, say): the steps an end asks for fail.
    await writer.close();
    ticks.length = 0;
    flusher.tidy();
    await sleep(300);
    // One idle tick failed, and none came after it in thirty ticks' time.
    expect(ticks).toEqual([false]);
    expect(flusher.running).toBeUndefined();
    // The next end tries them again, once.
    flusher.tidy();
    await sleep(100);
    expect(ticks).toEqual([false, false]);
  });
});

describe('the last text of an answer whose provider has ended', () => {
  it('is written and shown by the next write, and drain waits for it; once the end is written, none is taken', async () => {
    const chat = testDb.db as unknown as ChatDb;
    await threadOn();
    const job = jobOf(await streamingRow(chat));
    const shown: JobEvent[] = [];
    job.listeners.add((event) => shown.push(event));
    // A long tick: the first text is written at once, the next waits for the tick (long enough
    // that a loaded machine sees the first write and the drain well within it).
    const tickMs = 1_000;
    const flusher = flusherOf(chat, job, { retryMs: 1_000, foldMs: 60_000, tickMs });
    flusher.append(job, 'one');
    await expect.poll(() => job.stored).toBe(3);
    flusher.append(job, ' two');
    job.outcome = {
      status: 'done',
      error: '',
      usage: { promptTokens: 1, completionTokens: 2, estimated: false },
    };
    const drained = flusher.drain(job);
    await sleep(100);
    // The drain waits for the tick's write, as any text does (answers ending together share it).
    expect(job.stored).toBe(3);
    await drained;
    expect(job.stored).toBe('one two'.length);
    expect(shown.at(-1)).toEqual({ t: 'd', seq: 2, offset: 3, text: ' two' });
    expect((await new AnswerRepository(chat).findMessage(job.messageId))?.content).toBe('one two');
    // Once its end is being written, the flusher leaves the answer's text to it.
    job.ending = true;
    flusher.append(job, ' three');
    await flusher.drain(job);
    await sleep(tickMs + 100);
    expect(job.stored).toBe('one two'.length);
    await flusher.running;
  });
});

describe('the folds due after a write', () => {
  const waiting = () =>
    new Map([
      ['a', 0],
      ['ended', 10],
      ['b', 20],
      ['c', 30],
      ['d', 900],
    ]);
  const live = (job: string) => job !== 'ended';

  it("takes the answers that have waited foldMs, longest first, at most a tick's share", () => {
    expect(foldsDue(waiting(), 1_000, { foldMs: 500, most: 2, live })).toEqual(['a', 'b']);
    expect(foldsDue(waiting(), 1_000, { foldMs: 500, most: 10, live })).toEqual(['a', 'b', 'c']);
    expect(foldsDue(waiting(), 1_000, { foldMs: 0, most: Infinity, live })).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(foldsDue(waiting(), 100, { foldMs: 500, most: 10, live })).toEqual([]);
  });

  it('drops the answers no longer live that it passes, and leaves the others waiting', () => {
    const map = waiting();
    foldsDue(map, 1_000, { foldMs: 500, most: 2, live });
    expect([...map.keys()]).toEqual(['a', 'b', 'c', 'd']);
  });
});
