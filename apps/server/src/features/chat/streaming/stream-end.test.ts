import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../../bus/memory';
import { createTestDb, type TestDb } from '../../../testing/db';
import { SeenQueries } from '../../../testing/seen-queries';
import type { ChatDb } from '../chat.tables';
import { insertBareAnswer } from '../chat.testing';
import { AnswerRepository } from './answers.repository';
import { channelOf, type JobEvent } from './job';
import { ChatStreams, type StreamEnd, type StreamSink } from './stream';

let testDb: TestDb;
beforeEach(async () => {
  testDb = await createTestDb('sqlite');
  await sql`pragma foreign_keys = off`.execute(testDb.db);
});
afterEach(() => testDb.cleanup());

/** What a client attached to an answer written elsewhere was sent. */
function sinkOf() {
  const seen = { text: '', ends: [] as unknown[], closed: false };
  const cleanups: (() => void)[] = [];
  const sink: StreamSink = {
    delta: (delta) => (seen.text = seen.text.slice(0, delta.offset) + delta.text),
    done: (done) => seen.ends.push(done),
    error: (end: StreamEnd) => seen.ends.push(end),
    ping: () => undefined,
    end: () => {
      seen.closed = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
    onClose: (cleanup) => (seen.closed ? cleanup() : cleanups.push(cleanup)),
  };
  return { seen, sink };
}

describe('a client following an answer written on another instance', () => {
  it('ends from the end event when it holds the whole text, and reads the row only when it does not', async () => {
    const chat = testDb.db as unknown as ChatDb;
    const queries = new SeenQueries();
    const bus = createMemoryBus();
    const streams = new ChatStreams({
      repo: new AnswerRepository(chat.withPlugin(queries)),
      bus,
      // Written elsewhere, by a live writer.
      generations: {
        get: () => undefined,
        isWritten: () => Promise.resolve(true),
        endAbandoned: () => Promise.resolve(),
      },
      log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger,
    });
    const usage = { promptTokens: 1, completionTokens: 2, estimated: false };
    const id = await insertBareAnswer(chat, { content: 'Hi' });
    const publish = (event: JobEvent) => bus.publish(channelOf(id), JSON.stringify(event));

    const whole = sinkOf();
    // Attached until the answer ends: its first read sends what is stored.
    const following = streams.attach(id, 0, whole.sink);
    await expect.poll(() => whole.seen.text).toBe('Hi');
    const read = queries.nodes.length;
    await publish({ t: 'd', seq: 1, offset: 2, text: ' there' });
    await publish({ t: 'end', seq: 1, status: 'done', error: '', usage });
    await following;
    expect(whole.seen).toEqual({
      text: 'Hi there',
      ends: [{ status: 'done', usage }],
      closed: true,
    });
    expect(queries.nodes.length).toBe(read);

    // An end past the text it holds: the rest comes from the row.
    const behind = sinkOf();
    const behindFollowing = streams.attach(id, 0, behind.sink);
    await expect.poll(() => behind.seen.text).toBe('Hi');
    await sql`update chat_messages set content = 'Hi there!', seq = 2, status = 'done'`.execute(
      testDb.db,
    );
    await publish({ t: 'end', seq: 2, status: 'done', error: '', usage });
    await behindFollowing;
    expect(behind.seen.text).toBe('Hi there!');
    streams.close();
  });
});
