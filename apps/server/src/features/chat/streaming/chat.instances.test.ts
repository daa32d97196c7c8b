import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ChatSendResponse, MessageRecord } from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app';
import { createMemoryBus } from '../../../bus/memory';
import { createRedisBus } from '../../../bus/redis';
import type { Bus } from '../../../bus/types';
import { testConfig } from '../../../config';
import { createDb, type Db } from '../../../db/index';
import { startFakeOpenAi, type FakeOpenAi } from '../../../testing/fake-openai';
import { createTestApp, postTo, type TestApp } from '../../../testing/test-app';
import {
  eventually,
  expectOk,
  listen,
  newConversation,
  readStream,
  seedRoom,
  send,
  sleep,
  TEST_API_KEY,
  type Seeded,
} from '../chat.testing';
import { chatDb } from '../chat.tables';
import { EndMessages } from './job';

/**
 * Two instances sharing one SQLite file and one bus: in memory (the same object, as if it were
 * shared), and over Redis when TEST_REDIS_URL is set, as in production scale-out.
 */
interface Case {
  name: string;
  buses(): [Bus, Bus, () => Bus];
}

const cases: Case[] = [
  {
    name: 'memory',
    buses: () => {
      const bus = createMemoryBus();
      return [bus, bus, () => bus];
    },
  },
];
const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl) {
  cases.push({
    name: 'redis',
    buses: () => {
      const prefix = `atrium-test:${randomBytes(6).toString('hex')}:`;
      return [
        createRedisBus(redisUrl, prefix),
        createRedisBus(redisUrl, prefix),
        () => createRedisBus(redisUrl, prefix),
      ];
    },
  });
}

const answer = Array.from({ length: 30 }, (_, i) => `token${i}`).join(' ');

describe.each(cases)('two instances on a $name bus', ({ buses }) => {
  let fake: FakeOpenAi;
  let a: TestApp;
  let b: FastifyInstance;
  let dbB: Db;
  let busA: Bus;
  let busB: Bus;
  let makeBus: () => Bus;
  let baseA: string;
  let baseB: string;
  let seeded: Seeded;
  let token: string;
  const opened: { app: FastifyInstance; db: Db; bus: Bus }[] = [];

  const instance = async (bus: Bus) => {
    const db = createDb({ kind: 'sqlite', file: join(a.dataDir, 'atrium.db') });
    const app = await buildApp(testConfig(a.dataDir), { db, bus, now: a.clock.now });
    opened.push({ app, db, bus });
    return { app, db };
  };

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    [busA, busB, makeBus] = buses();
    a = await createTestApp({ bus: busA });
    ({ app: b, db: dbB } = await instance(busB));
    baseA = await listen(a.app);
    baseB = await listen(b);
    seeded = await seedRoom(a, fake);
    await expectOk(
      a,
      '/admin/api/aigc/usage/quota_save',
      { messagesPerDay: 0, tokensPerDay: 0, messagesPerMinute: 0 },
      { area: 'admin', token: seeded.adminToken },
    );
    token = (await a.loginMember()).token;
  });

  afterAll(async () => {
    for (const { app, db, bus } of opened.reverse()) {
      await app.close();
      await db.destroy();
      if (bus !== busA) await bus.close();
    }
    await a.cleanup();
    if (busA !== busB) await busA.close();
    await fake.close();
  });

  it('a stream started on one instance is re-attached from the other, missing nothing', async () => {
    const conversation = await newConversation(a, token, seeded.room.id);
    fake.script({ text: answer, delayMs: 15 });
    const sent = await send(a, token, conversation.id, 'Stream from A');
    expect(sent.json.code, sent.json.msg).toBe(0);
    const id = sent.json.data.assistantMessage.id;
    expect(b.features.chat.generations.get(id)).toBeUndefined();

    const first = await readStream(
      baseB,
      token,
      { messageId: id },
      { stopWhen: (r) => r.text.length > 40 },
    );
    expect(first.text.length).toBeGreaterThan(40);
    expect(answer.startsWith(first.text)).toBe(true);
    const rest = await readStream(
      baseB,
      token,
      { messageId: id, offset: first.text.length },
      { start: first.text },
    );
    expect(rest.text).toBe(answer);
    expect(rest.events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
    const fromA = await readStream(baseA, token, { messageId: id });
    expect(fromA.text).toBe(answer);
  });

  it('stop sent to the other instance aborts the upstream request', async () => {
    const conversation = await newConversation(a, token, seeded.room.id);
    fake.script({ text: answer, delayMs: 20, hang: true });
    const count = fake.completions().length;
    const sent = await send(a, token, conversation.id, 'Stop me from B');
    const id = sent.json.data.assistantMessage.id;
    await fake.waitFor(() => (fake.completions()[count]?.chunksSent ?? 0) >= 2);
    const stopped = await expectOk<MessageRecord>(
      { post: postTo(b) },
      '/api/aigc/chat/stop',
      { messageId: id },
      { area: 'member', token },
    );
    expect(stopped.status).toBe('stopped');
    await fake.waitFor(() => fake.completions()[count]?.aborted === true);
    expect(answer.startsWith(stopped.content)).toBe(true);
  });

  it('a shutdown ends live answers as interrupted and lets attached clients go', async () => {
    const { app: c } = await instance(makeBus());
    const baseC = await listen(c);
    const post = postTo(c);
    const conversation = await newConversation({ post }, token, seeded.room.id);
    fake.script({ text: answer, delayMs: 20, hang: true });
    const count = fake.completions().length;
    const sent = await post<ChatSendResponse>(
      '/api/aigc/chat/send',
      { conversationId: conversation.id, content: 'Keep going' },
      { area: 'member', token },
    );
    const id = sent.json.data.assistantMessage.id;
    await fake.waitFor(() => (fake.completions()[count]?.chunksSent ?? 0) >= 2);
    const reading = readStream(baseC, token, { messageId: id });
    await sleep(50);
    const started = Date.now();
    await c.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    const read = await reading;
    expect(read.events.at(-1)).toMatchObject({ event: 'error', data: { status: 'interrupted' } });
    await fake.waitFor(() => fake.completions()[count]?.aborted === true);
    const row = await chatDb(dbB)
      .selectFrom('chatMessages')
      .select(['status', 'content'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('interrupted');
    expect(row.content).toBe(read.text);
    expect(answer.startsWith(row.content) && row.content.length > 0).toBe(true);
  });

  it('marks answers left streaming by a dead instance as interrupted, keeping their text', async () => {
    const conversation = await newConversation(a, token, seeded.room.id);
    const now = a.clock.now();
    const orphan = await chatDb(dbB)
      .insertInto('chatMessages')
      .values({
        conversationId: conversation.id,
        role: 'assistant',
        content: 'half an ans',
        images: '[]',
        status: 'streaming',
        error: '',
        modelId: seeded.model.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const read = await readStream(
      baseB,
      token,
      { messageId: orphan.id, offset: 5 },
      { start: 'half ' },
    );
    expect(read.text).toBe('half an ans');
    expect(read.events.at(-1)).toMatchObject({ event: 'error', data: { status: 'interrupted' } });

    const second = await chatDb(dbB)
      .insertInto('chatMessages')
      .values({
        conversationId: conversation.id,
        role: 'assistant',
        content: 'left behind',
        images: '[]',
        status: 'streaming',
        error: '',
        modelId: seeded.model.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await instance(makeBus());
    const row = await eventually(async () => {
      const found = await chatDb(dbB)
        .selectFrom('chatMessages')
        .select(['status', 'content', 'error'])
        .where('id', '=', second.id)
        .executeTakeFirst();
      return found?.status === 'interrupted' ? found : undefined;
    });
    expect(row).toMatchObject({
      content: 'left behind',
      error: EndMessages.interrupted,
    });
  });
});
