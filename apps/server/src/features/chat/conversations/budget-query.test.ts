import type { MemberBudget } from '@atrium/shared/contract/chat-budget';
import type { ChatQuota, ConversationRecord } from '@atrium/shared/contract/chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../../testing/db';
import { startFakeOpenAi, type ChatBody, type FakeOpenAi } from '../../../testing/fake-openai';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { chatDb } from '../chat.tables';
import {
  expectOk,
  postIn,
  seedRoom,
  TEST_API_KEY,
  unlimited,
  until,
  type Seeded,
} from '../chat.testing';

/**
 * Issue 28, point 5: the footer under the message box and the send's refusal use one estimate,
 * so the footer never says a question is left while the send of that question is refused; and a
 * question (or documents) refused in a new conversation leaves no empty conversation behind.
 */

const MEMBER_TOKENS = 'member';

describe.each(testDbKinds)('the footer says what the send does (%s)', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let seeded: Seeded;
  const asAdmin = () => ({ area: 'admin' as const, token: seeded.adminToken });
  const as = (token: string) => ({ area: MEMBER_TOKENS as 'member', token });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    // Answers use up to 300 tokens, never more than they were allowed.
    fake.setDefault((body: ChatBody) => ({
      text: 'An answer of some length. '.repeat(4),
      usage: { prompt_tokens: 60, completion_tokens: Math.min(300, Number(body.max_tokens)) },
    }));
    t = await createTestApp({ db: kind });
    seeded = await seedRoom(t, fake);
  });
  afterAll(async () => {
    await expectOk(t, '/admin/api/aigc/usage/quota_save', unlimited, asAdmin());
    await t.cleanup();
    await fake.close();
  });

  const setQuota = (quota: Partial<ChatQuota>) =>
    expectOk(t, '/admin/api/aigc/usage/quota_save', { ...unlimited, ...quota }, asAdmin());
  const setRoom = (budget: Partial<ChatQuota>, modelId = seeded.model.id) =>
    expectOk(
      t,
      '/admin/api/aigc/chat_room/save',
      {
        id: seeded.room.id,
        title: seeded.room.title,
        modelId,
        budget: { tokensPerDay: 0, tokensPerMonth: 0, costPerDay: 0, costPerMonth: 0, ...budget },
      },
      asAdmin(),
    );
  const conversations = (token: string) =>
    expectOk<{ records: ConversationRecord[] }>(
      t,
      '/api/aigc/conversation/list',
      { roomId: seeded.room.id },
      as(token),
    ).then((list) => list.records);
  const ended = (id: number) =>
    until(async () => {
      const row = await chatDb(t.app.services.db)
        .selectFrom('chatMessages')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return row.status !== 'streaming';
    }, 20_000);

  /**
   * Asks the footer about a question, then sends it, until a send is refused: each send's result
   * must be what the footer said of it. Answers the footer's counts, the refusal, and the
   * conversation (the first send creates it).
   */
  async function walk(token: string, lang: 'zh-CN' | 'en') {
    const said: number[] = [];
    let conversationId = 0;
    for (let i = 0; i < 40; i += 1) {
      const question = `Question number ${i}: ${'and some more words '.repeat(i % 3)}`.trim();
      const footer = await expectOk<MemberBudget>(
        t,
        '/api/aigc/chat/budget',
        { roomId: seeded.room.id, conversationId, question },
        as(token),
      );
      const questions = footer.next?.questions;
      expect(questions).not.toBeNull();
      said.push(questions ?? -1);
      const sent = await postIn<{
        userMessage: { conversationId: number };
        assistantMessage: { id: number };
      }>(
        t,
        lang,
        '/api/aigc/chat/send',
        { conversationId, roomId: seeded.room.id, content: question },
        as(token),
      );
      expect(sent.code === 0, `question ${i}: the footer said ${questions}; ${sent.msg}`).toBe(
        (questions ?? 0) >= 1,
      );
      if (sent.code !== 0) return { said, refusal: sent.msg, footer, conversationId };
      conversationId = sent.data.userMessage.conversationId;
      await ended(sent.data.assistantMessage.id);
    }
    throw new Error(`never refused; the footer said ${said.join(', ')}`);
  }

  it("a member's questions per day and cost per day: one question left only when it fits", async () => {
    // 2 and 8 per million tokens: an answer of 1,024 tokens may cost 0.0082; 0.02 a day.
    await expectOk(
      t,
      '/admin/api/aigc/model/save',
      { ...seeded.model, promptPrice: 2, completionPrice: 8 },
      asAdmin(),
    );
    await setQuota({ messagesPerDay: 10, costPerDay: 0.02 });
    const { token } = await t.loginMember();
    let walked: Awaited<ReturnType<typeof walk>>;
    try {
      walked = await walk(token, 'zh-CN');
    } finally {
      await setQuota({});
    }
    const { said, refusal, footer } = walked;
    // Refused by cost with questions left by count; the footer said so before the send.
    expect(said.at(-1)).toBe(0);
    expect(said.slice(0, -1).every((n) => n >= 1)).toBe(true);
    expect(said.length).toBeLessThan(10);
    expect(refusal).toMatch(
      /^你每日的费用预算 0\.02，只剩 0\.\d+，不够这条消息使用，UTC 0 点重置。$/,
    );
    expect(footer.next).toMatchObject({ scope: 'member', period: 'day', questions: 0 });
    // The next 00:00 UTC by the server's clock.
    const today = new Date(t.app.services.now());
    expect(footer.next?.resetsAt).toBe(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1),
    );
    await expectOk(
      t,
      '/admin/api/aigc/model/save',
      { ...seeded.model, promptPrice: 0, completionPrice: 0 },
      asAdmin(),
    );
  });

  it("a room's tokens per day: tokens left beside a refusal only when too few for the question", async () => {
    await setRoom({ tokensPerDay: 2_500 });
    const { token } = await t.loginMember();
    const { said, refusal, footer } = await walk(token, 'en');
    const other = await t.loginMember();
    const theirs = await expectOk<MemberBudget>(
      t,
      '/api/aigc/chat/budget',
      { roomId: seeded.room.id },
      as(other.token),
    );
    await setRoom({});
    expect(said.at(-1)).toBe(0);
    expect(said.slice(0, -1).every((n) => n >= 1)).toBe(true);
    expect(refusal).toMatch(
      /^This room(?:'s daily limit of 2500 tokens has \d+ tokens left, too little for this message| has used today's limit of 2500 tokens)\. The limit resets at 00:00 UTC\.$/,
    );
    expect(footer.next).toMatchObject({ scope: 'room', period: 'day', questions: 0 });
    // The same room for everyone: another member's footer says so too.
    expect(theirs.next?.questions).toBeLessThanOrEqual(1);
  });

  it('a refused first question or attach leaves no empty conversation', async () => {
    await setQuota({ messagesPerDay: 1 });
    const { token } = await t.loginMember();
    const first = await postIn<{ userMessage: { conversationId: number; id: number } }>(
      t,
      'en',
      '/api/aigc/chat/send',
      { conversationId: 0, roomId: seeded.room.id, content: 'Hello' },
      as(token),
    );
    expect(first.code, first.msg).toBe(0);
    expect((await conversations(token)).map((c) => c.id)).toEqual([
      first.data.userMessage.conversationId,
    ]);
    const refused = await postIn(
      t,
      'en',
      '/api/aigc/chat/send',
      { conversationId: 0, roomId: seeded.room.id, content: 'Hello again' },
      as(token),
    );
    expect(refused).toMatchObject({ data: { error: 'chat.quotaMessages' } });
    const attach = await postIn(
      t,
      'en',
      '/api/aigc/document/attach',
      {
        conversationId: 0,
        roomId: seeded.room.id,
        paths: ['/data/file/0123456789abcdef01234567/not-mine.pdf'],
      },
      as(token),
    );
    expect(attach.code).not.toBe(0);
    expect(await conversations(token)).toHaveLength(1);
    await setQuota({});
  });

  it('cost limits keep the precision typed, or are refused naming it', async () => {
    const saved = await expectOk<ChatQuota>(
      t,
      '/admin/api/aigc/usage/quota_save',
      { ...unlimited, costPerDay: 0.005, costPerMonth: 0.123456 },
      asAdmin(),
    );
    expect(saved).toMatchObject({ costPerDay: 0.005, costPerMonth: 0.123456 });
    expect(
      await expectOk<ChatQuota>(t, '/admin/api/aigc/usage/quota', {}, asAdmin()),
    ).toMatchObject({ costPerDay: 0.005 });
    const finer = await postIn(
      t,
      'zh-CN',
      '/admin/api/aigc/usage/quota_save',
      { ...unlimited, costPerDay: 0.0000005 },
      asAdmin(),
    );
    expect(finer).toMatchObject({
      msg: '每日费用最多保留 6 位小数',
      data: { error: 'validation.tooPrecise', field: 'costPerDay' },
    });
    const room = await postIn(
      t,
      'en',
      '/admin/api/aigc/chat_room/save',
      {
        id: seeded.room.id,
        title: seeded.room.title,
        modelId: seeded.model.id,
        budget: { costPerMonth: 1.1234567 },
      },
      asAdmin(),
    );
    expect(room).toMatchObject({
      msg: 'Cost per month takes at most 6 decimals',
      data: { error: 'validation.tooPrecise', field: 'budget.costPerMonth' },
    });
    await setQuota({});
  });
});
