import type { MemberBudget } from '@atrium/shared/contract/chat-budget';
import type { ChatQuota, MessageListResponse } from '@atrium/shared/contract/chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../../testing/db';
import { startFakeOpenAi, type ChatBody, type FakeOpenAi } from '../../../testing/fake-openai';
import { createTestApp, type TestApp } from '../../../testing/test-app';
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
import { MAX_ANSWER_CHARS } from '../chat.tables';
import { EndMessages } from '../streaming/index';
import { estimateTokens, floorTokens } from '../streaming/index';

/**
 * Issue 26, point 9: a provider that ignores `max_tokens` (and streams without end, or reports
 * less than it sent) can neither overspend a budget nor store or list an answer without bound.
 */

const noLimits: ChatQuota = {
  messagesPerDay: 0,
  messagesPerMinute: 0,
  tokensPerDay: 0,
  tokensPerMonth: 0,
  costPerDay: 0,
  costPerMonth: 0,
};

/** Ten tokens a piece by the estimator: the most one piece may overshoot an answer's limit. */
const PIECE = 'word '.repeat(8);

describe.each(testDbKinds)('answers of a provider that ignores max_tokens (%s)', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let seeded: Seeded;
  const asAdmin = () => ({ area: 'admin' as const, token: seeded.adminToken });
  const as = (token: string) => ({ area: 'member' as const, token });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({ db: kind });
    seeded = await seedRoom(t, fake);
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  const row = (id: number) =>
    chatDb(t.app.services.db)
      .selectFrom('chatMessages')
      .select(['status', 'error', 'content', 'completionTokens', 'tokensEstimated'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** Sends a question and waits for its answer to end, or answers the refusal. */
  async function ask(
    token: string,
    conversationId: number,
  ): Promise<{ refused?: string; id?: number; ended?: Awaited<ReturnType<typeof row>> }> {
    const sent = await send(t, token, conversationId, 'Talk');
    if (sent.json.code !== 0) return { refused: sent.json.msg };
    const id = sent.json.data.assistantMessage.id;
    await until(async () => (await row(id)).status !== 'streaming', 20_000);
    return { id, ended: await row(id) };
  }

  it('a 3,000 tokens/day budget is not overspent by an answer that never ends or a usage that lies', async () => {
    const budget = 3_000;
    await expectOk(
      t,
      '/admin/api/aigc/usage/quota_save',
      { ...noLimits, tokensPerDay: budget },
      asAdmin(),
    );
    const { token } = await t.loginMember();
    const conversation = await newConversation(t, token, seeded.room.id);

    // Reports 1 token for 400 characters: settled at the fewest tokens 400 characters can cost.
    const liar = 'word '.repeat(80);
    fake.script({ text: liar, usage: { prompt_tokens: 5, completion_tokens: 1 } });
    const lied = await ask(token, conversation.id);
    expect(lied.ended).toMatchObject({
      status: 'done',
      content: liar,
      completionTokens: floorTokens(liar),
      tokensEstimated: 1,
    });

    const first = fake.completions().length;
    fake.setDefault({ endless: PIECE });
    const ends = [];
    for (let i = 0; i < 10; i += 1) {
      // A conversation each: a long history would leave too little for an answer.
      const asked = await ask(token, (await newConversation(t, token, seeded.room.id)).id);
      if (asked.refused !== undefined) break;
      ends.push(asked.ended);
    }
    fake.setDefault({ text: 'ok' });
    expect(ends.length).toBeGreaterThanOrEqual(1);
    const requests = fake.completions().slice(first);
    for (const [i, ended] of ends.entries()) {
      expect(ended).toMatchObject({ status: 'interrupted', error: EndMessages.length });
      const maxTokens = Number((requests[i]?.body as ChatBody).max_tokens);
      // Stopped at the reservation it was given, and settled at no less than what it read.
      expect(ended?.completionTokens).toBeGreaterThanOrEqual(floorTokens(ended?.content ?? ''));
      expect(ended?.completionTokens).toBeLessThanOrEqual(maxTokens);
      await fake.waitFor(() => requests[i]?.aborted === true);
    }
    const { lines } = await expectOk<MemberBudget>(
      t,
      '/api/aigc/chat/budget',
      { roomId: seeded.room.id },
      as(token),
    );
    const tokens = lines.find(
      (l) => l.scope === 'member' && l.period === 'day' && l.unit === 'tokens',
    );
    console.info(
      `[${kind}] ${ends.length} endless answers; used ${tokens?.used} of ${budget} tokens, reserved ${tokens?.reserved}`,
    );
    expect(tokens?.reserved).toBe(0);
    expect(tokens?.used ?? Infinity).toBeLessThanOrEqual(budget + estimateTokens(PIECE));
    expect(tokens?.used ?? 0).toBeGreaterThan(budget / 2);
  });

  it(`an endless answer is cut at ${MAX_ANSWER_CHARS} characters, and no answer is listed longer, even one stored before the cap`, async () => {
    await expectOk(t, '/admin/api/aigc/usage/quota_save', noLimits, asAdmin());
    const { token } = await t.loginMember();
    const conversation = await newConversation(t, token, seeded.room.id);
    const count = fake.completions().length;
    fake.script({ endless: 'x'.repeat(16_384) });
    const asked = await ask(token, conversation.id);
    expect(asked.ended).toMatchObject({ status: 'interrupted', error: EndMessages.length });
    expect(asked.ended?.content).toBe('x'.repeat(MAX_ANSWER_CHARS));
    await fake.waitFor(() => fake.completions()[count]?.aborted === true);

    // A row written before answers were capped.
    await chatDb(t.app.services.db)
      .updateTable('chatMessages')
      .set({ content: 'y'.repeat(MAX_ANSWER_CHARS * 2) })
      .where('id', '=', asked.id ?? 0)
      .execute();
    const listed = await expectOk<MessageListResponse>(
      t,
      '/api/aigc/message/list',
      { conversationId: conversation.id },
      as(token),
    );
    const answer = listed.records.find((r) => r.id === asked.id);
    expect(answer?.content).toBe('y'.repeat(MAX_ANSWER_CHARS));
    expect(JSON.stringify(listed).length).toBeLessThan(MAX_ANSWER_CHARS + 10_000);
  });
});
