import type { MemberBudget } from '@atrium/shared/contract/chat-budget';
import type { AdminRoomRecord, ChatQuota, UsageResponse } from '@atrium/shared/contract/chat';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceTiming } from '../../../instances/instances';
import {
  createAppInstances,
  type AppInstance,
  type AppInstances,
} from '../../../testing/app-instances';
import { testDbKinds } from '../../../testing/db';
import { startFakeOpenAi, type ChatBody, type FakeOpenAi } from '../../../testing/fake-openai';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { RETRIEVAL_MAX_TOKENS } from '../../chat-docs/index';
import { FileClient, useUploadConfig } from '../../library/library.testing';
import { render, type MessageRef } from '@atrium/shared/messages/catalogue';
import { refusal } from './budgets';
import { chatDb } from '../chat.tables';
import {
  expectOk,
  newConversation,
  seedRoom,
  send,
  TEST_API_KEY,
  until,
  type Seeded,
} from '../chat.testing';

/**
 * Issue 18: budgets that cannot be overspent. Two instances in this process on one database
 * (SQLite file, or PostgreSQL when TEST_DATABASE_URL is set) take parallel sends; whatever the
 * interleaving, what is accepted never exceeds the limit, and every answer's reservation is
 * replaced by its real usage when it ends, also when its instance dies.
 */

const timing: InstanceTiming = { heartbeatMs: 100, deadAfterMs: 500 };
const PARALLEL = 20;

const noLimits: ChatQuota = {
  messagesPerDay: 0,
  messagesPerMinute: 0,
  tokensPerDay: 0,
  tokensPerMonth: 0,
  costPerDay: 0,
  costPerMonth: 0,
};

/** The worst case a budget must hold against: every answer uses all the tokens it may. */
const greedy = (body: ChatBody) => ({
  text: 'word '.repeat(5),
  firstDelayMs: 150,
  usage: {
    prompt_tokens: 20,
    completion_tokens: Number(body.max_tokens ?? 1024),
  },
});

describe.each(testDbKinds)('budgets across two instances (%s)', (kind) => {
  let fake: FakeOpenAi;
  let instances: AppInstances;
  let seeded: Seeded;
  let seeder: AppInstance;

  const instance = () => instances.start();

  const asAdmin = () => ({ area: 'admin' as const, token: seeded.adminToken });

  const newMember = (at: AppInstance) => instances.newMember(at);

  const setQuota = (at: AppInstance, quota: Partial<ChatQuota>) =>
    expectOk(at, '/admin/api/aigc/usage/quota_save', { ...noLimits, ...quota }, asAdmin());

  async function setRoomBudget(at: AppInstance, budget: Partial<ChatQuota>) {
    const room = seeded.room;
    await expectOk<AdminRoomRecord>(
      at,
      '/admin/api/aigc/chat_room/save',
      {
        id: room.id,
        title: room.title,
        modelId: room.modelId,
        budget: { tokensPerDay: 0, tokensPerMonth: 0, costPerDay: 0, costPerMonth: 0, ...budget },
      },
      asAdmin(),
    );
  }

  /** Sends one question per conversation from each token, all at once, alternating instances. */
  async function sendAll(started: AppInstance[], tokens: string[]) {
    const at = (i: number) => started[i % started.length] ?? seeder;
    const conversations = await Promise.all(
      tokens.map((token, i) => newConversation(at(i), token, seeded.room.id)),
    );
    return Promise.all(
      conversations.map((conversation, i) =>
        send(at(i + 1), tokens[i] ?? '', conversation.id, `question ${i}`),
      ),
    );
  }

  const counters = () => chatDb(seeder.db).selectFrom('chatBudgetCounters').selectAll().execute();

  const usageRows = (roomId: number) =>
    chatDb(seeder.db)
      .selectFrom('chatUsage')
      .select(['memberId', 'promptTokens', 'completionTokens', 'reservedTokens', 'cost', 'settled'])
      .where('roomId', '=', roomId)
      .execute();

  async function allSettled(roomId: number) {
    await until(async () => (await usageRows(roomId)).every((r) => r.settled === 1), 10_000);
  }

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    fake.setDefault(greedy);
    instances = await createAppInstances({ db: kind, timing });
    seeder = await instances.start({ lasting: true });
    seeded = await instances.seedRoom(seeder, fake, { systemPrompt: 'Answer briefly.' });
  });

  afterEach(async () => {
    await instances.closeStarted();
    fake.setDefault(greedy);
  });

  afterAll(async () => {
    await instances.cleanup();
    await fake.close();
  });

  it(`a daily limit of 3 messages accepts exactly 3 of ${PARALLEL} parallel sends`, async () => {
    const [a, b] = [await instance(), await instance()];
    await setQuota(a, { messagesPerDay: 3 });
    const token = await newMember(a);
    const answers = await sendAll(
      [a, b],
      Array.from({ length: PARALLEL }, () => token),
    );
    const accepted = answers.filter((s) => s.json.code === 0);
    expect(accepted).toHaveLength(3);
    for (const refused of answers.filter((s) => s.json.code !== 0))
      expect(refused.json).toMatchObject({
        msg: '今天的 3 次提问已用完，UTC 0 点重置。',
        data: { error: 'chat.quotaMessages', params: { limit: 3 } },
      });
    const left = await expectOk<MemberBudget>(
      a,
      '/api/aigc/chat/budget',
      { roomId: seeded.room.id },
      {
        area: 'member',
        token,
      },
    );
    expect(left.lines).toContainEqual(
      expect.objectContaining({
        scope: 'member',
        period: 'day',
        unit: 'messages',
        limit: 3,
        used: 3,
        left: 0,
      }),
    );
  });

  it(`a member's token budget holds against ${PARALLEL} parallel sends of answers that use all they may`, async () => {
    const [a, b] = [await instance(), await instance()];
    const budget = 2_000;
    await setQuota(a, { tokensPerDay: budget });
    const token = await newMember(a);
    const answers = await sendAll(
      [a, b],
      Array.from({ length: PARALLEL }, () => token),
    );
    const accepted = answers.filter((s) => s.json.code === 0);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length).toBeLessThan(PARALLEL);
    await allSettled(seeded.room.id);
    // Each request asked the provider for no more than its reservation left room for.
    const asked = fake
      .completions()
      .slice(-accepted.length)
      .map((r) => Number((r.body as ChatBody).max_tokens));
    expect(asked.every((n) => n >= 16)).toBe(true);
    await allSettled(seeded.room.id);
    const memberRows = await chatDb(seeder.db)
      .selectFrom('chatUsage')
      .innerJoin('chatMessages', 'chatMessages.id', 'chatUsage.messageId')
      .select(['chatUsage.promptTokens', 'chatUsage.completionTokens'])
      .where(
        'chatMessages.id',
        'in',
        accepted.map((s) => s.json.data.assistantMessage.id),
      )
      .execute();
    const used = memberRows.reduce((s, r) => s + r.promptTokens + r.completionTokens, 0);
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(budget);
    const left = await expectOk<MemberBudget>(
      a,
      '/api/aigc/chat/budget',
      { roomId: seeded.room.id },
      {
        area: 'member',
        token,
      },
    );
    const line = left.lines.find((l) => l.unit === 'tokens' && l.scope === 'member');
    expect(line).toMatchObject({ limit: budget, used, reserved: 0, left: budget - used });
    // Sent one after another until refused: the last answers are cut to what is left.
    let refused = '';
    for (let i = 0; i < 30 && !refused; i += 1) {
      const conversation = await newConversation(a, token, seeded.room.id);
      const more = await send(a, token, conversation.id, 'more');
      if (more.json.code !== 0) refused = more.json.msg;
      await allSettled(seeded.room.id);
    }
    expect(refused).toMatch(
      /^你(每日的额度 2000 tokens，只剩 \d+ tokens，不够这条消息使用|今日的额度 2000 tokens 已用完)，UTC 0 点重置。$/,
    );
    const final = await expectOk<MemberBudget>(
      a,
      '/api/aigc/chat/budget',
      { roomId: seeded.room.id },
      { area: 'member', token },
    );
    const total = final.lines.find((l) => l.unit === 'tokens' && l.scope === 'member');
    expect(total?.used).toBeLessThanOrEqual(budget);
    expect(total?.used).toBeGreaterThan(budget - 200);
  });

  it("a room's cost budget is shared by its members and holds across instances", async () => {
    const [a, b] = [await instance(), await instance()];
    await setQuota(a, {});
    // $10 per million completion tokens and $2 per million prompt tokens; the room may spend $0.05.
    await expectOk(
      a,
      '/admin/api/aigc/model/save',
      {
        id: seeded.model.id,
        providerId: seeded.model.providerId,
        name: seeded.model.name,
        title: seeded.model.title,
        contextLength: seeded.model.contextLength,
        promptPrice: 2,
        completionPrice: 10,
      },
      asAdmin(),
    );
    await setRoomBudget(a, { costPerDay: 0.05 });
    const before = (await usageRows(seeded.room.id)).reduce((s, r) => s + r.cost, 0);
    const members = await Promise.all(Array.from({ length: 5 }, () => newMember(a)));
    const tokens = Array.from({ length: PARALLEL }, (_, i) => members[i % members.length] ?? '');
    const answers = await sendAll([a, b], tokens);
    expect(answers.some((s) => s.json.code === 0)).toBe(true);
    expect(answers.some((s) => /^本聊天室/.test(s.json.msg))).toBe(true);
    await allSettled(seeded.room.id);
    const spent = (await usageRows(seeded.room.id)).reduce((s, r) => s + r.cost, 0) - before;
    // Costs are whole millionths: $0.05 is 50,000.
    expect(spent).toBeGreaterThan(0);
    expect(before + spent).toBeLessThanOrEqual(50_000);
    const room = (await counters()).find(
      (c) => c.scope === 'room' && c.scopeId === seeded.room.id && c.period.startsWith('d:'),
    );
    expect(room).toMatchObject({ reservedTokens: 0, reservedCost: 0 });
    expect(Number(room?.cost)).toBe(
      (await usageRows(seeded.room.id)).reduce((s, r) => s + r.cost, 0),
    );
    // The usage page counts the same cost, in the currency.
    const today = new Date().toISOString().slice(0, 10);
    const summary = await expectOk<UsageResponse>(
      a,
      '/admin/api/aigc/usage/summary',
      { from: today, to: today, roomId: seeded.room.id },
      asAdmin(),
    );
    expect(summary.totals.cost).toBeCloseTo(Number(room?.cost) / 1_000_000, 6);
    await setRoomBudget(a, {});
  });

  it('an answer whose instance died gives its reservation back when another instance ends it', async () => {
    const a = await instance();
    await setQuota(a, { tokensPerDay: 100_000 });
    const token = await newMember(a);
    fake.setDefault({ text: 'word '.repeat(50), delayMs: 5, hang: true });
    const conversation = await newConversation(a, token, seeded.room.id);
    const sent = await send(a, token, conversation.id, 'keep talking');
    expect(sent.json.code, sent.json.msg).toBe(0);
    const held = await expectOk<MemberBudget>(
      a,
      '/api/aigc/chat/budget',
      { roomId: seeded.room.id },
      {
        area: 'member',
        token,
      },
    );
    const line = held.lines.find((l) => l.unit === 'tokens');
    expect(line?.reserved).toBeGreaterThan(0);
    await a.kill();
    const b = await instance();
    const id = sent.json.data.assistantMessage.id;
    await until(async () => {
      const row = await chatDb(seeder.db)
        .selectFrom('chatMessages')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return row.status === 'interrupted';
    }, 10_000);
    const after = await expectOk<MemberBudget>(
      b,
      '/api/aigc/chat/budget',
      { roomId: seeded.room.id },
      {
        area: 'member',
        token,
      },
    );
    const settled = after.lines.find((l) => l.unit === 'tokens');
    expect(settled?.reserved).toBe(0);
    expect(settled?.used).toBeGreaterThan(0);
    expect(settled?.used).toBeLessThan(line?.reserved ?? 0);
  });
});

describe('budget refusals', () => {
  it('words each limit in both languages', () => {
    const member = { scope: 'member', period: 'day' } as const;
    const roomMonth = { scope: 'room', period: 'month' } as const;
    const zh = (ref: MessageRef) => render('zh-CN', ref);
    expect(zh(refusal(member, 'messages', 3))).toBe('今天的 3 次提问已用完，UTC 0 点重置。');
    expect(zh(refusal(member, 'tokens', 2000))).toBe(
      '你今日的额度 2000 tokens 已用完，UTC 0 点重置。',
    );
    expect(zh(refusal(roomMonth, 'cost', 50_000))).toBe(
      '本聊天室本月的费用预算 0.05 已用完，下月 1 日 UTC 0 点重置。',
    );
    expect(zh(refusal(member, 'tokens', 2000, 12))).toBe(
      '你每日的额度 2000 tokens，只剩 12 tokens，不够这条消息使用，UTC 0 点重置。',
    );
    const english = (ref: MessageRef) => render('en', ref);
    expect(english(refusal(member, 'messages', 3))).toBe(
      "You have reached today's limit of 3 messages. It resets at 00:00 UTC.",
    );
    expect(english(refusal(member, 'tokens', 2000))).toBe(
      "You have used today's limit of 2000 tokens. The limit resets at 00:00 UTC.",
    );
    expect(english(refusal(roomMonth, 'cost', 50_000))).toBe(
      "This room has used this month's budget of 0.05. The limit resets at the start of next month (00:00 UTC).",
    );
    expect(english(refusal(member, 'tokens', 2000, 12))).toBe(
      'Your daily limit of 2000 tokens has 12 tokens left, too little for this message. The limit resets at 00:00 UTC.',
    );
    expect(english(refusal(roomMonth, 'cost', 1_500_000, 2))).toBe(
      "This room's monthly budget of 1.5 has 0.000002 left, too little for this message. The limit resets at the start of next month (00:00 UTC).",
    );
  });
});

describe.each(testDbKinds)('budgets and attached documents (%s)', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let seeded: Seeded;
  const as = (token: string) => ({ area: 'member' as const, token });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({ db: kind, deps: { aigc: { documents: { pollMs: 50 } } } });
    await useUploadConfig(t);
    seeded = await seedRoom(t, fake);
    await expectOk(
      t,
      '/admin/api/aigc/usage/quota_save',
      { ...noLimits, tokensPerDay: 1_000_000 },
      { area: 'admin', token: seeded.adminToken },
    );
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  const reservedFor = async (messageId: number) =>
    (
      await chatDb(t.app.services.db)
        .selectFrom('chatUsage')
        .select('reservedTokens')
        .where('messageId', '=', messageId)
        .executeTakeFirstOrThrow()
    ).reservedTokens;

  it("reserves the passages' cap when the conversation holds documents, and gives passages only then", async () => {
    const { token } = await t.loginMember();
    const files = new FileClient(t, as(token), 'file');
    const notes = await files.uploadAndSave({
      name: 'notes.txt',
      data: Buffer.from('The penguin colony count is 312.'),
    });
    const plain = await newConversation(t, token, seeded.room.id);
    const withDocs = await newConversation(t, token, seeded.room.id);
    await expectOk(
      t,
      '/api/aigc/document/attach',
      { conversationId: withDocs.id, paths: [notes.path] },
      as(token),
    );
    await until(async () => {
      const { records } = await expectOk<{ records: { status: string }[] }>(
        t,
        '/api/aigc/document/list',
        { conversationId: withDocs.id },
        as(token),
      );
      return records.every((r) => r.status === 'done');
    }, 20_000);

    const before = fake.completions().length;
    const a = await send(t, token, plain.id, 'How many penguins?');
    const b = await send(t, token, withDocs.id, 'How many penguins?');
    expect(a.json.code, a.json.msg).toBe(0);
    expect(b.json.code, b.json.msg).toBe(0);
    await fake.waitFor(() => fake.completions().length >= before + 2);
    const plainReserved = await reservedFor(a.json.data.assistantMessage.id);
    const docsReserved = await reservedFor(b.json.data.assistantMessage.id);
    expect(docsReserved - plainReserved).toBe(RETRIEVAL_MAX_TOKENS);
    const prompts = fake
      .completions()
      .slice(before)
      .map((r) => JSON.stringify((r.body as ChatBody).messages));
    expect(prompts.filter((p) => p.includes('penguin colony count is 312'))).toHaveLength(1);
  });
});
