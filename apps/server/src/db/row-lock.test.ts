import { chatSharesMax, type ChatShareRecord } from '@atrium/shared/contract/chat-export';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../testing/db';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fake-openai';
import { createTestApp, type TestApp } from '../testing/test-app';
import {
  newConversation,
  seedRoom,
  TEST_API_KEY,
  type Seeded,
} from '../features/chat/chat.testing';
import { lockRow } from './row-lock';

/**
 * Limits counted under a row lock (issue 18): a count read before the row is added can be passed
 * by parallel requests on PostgreSQL unless the owner's row is held while counting.
 */
describe.each(testDbKinds)('limits counted under a row lock on %s', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let seeded: Seeded;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({ db: kind });
    seeded = await seedRoom(t, fake);
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  it('answers whether the row exists', async () => {
    const { user } = await t.loginMember();
    await t.app.services.db.transaction().execute(async (trx) => {
      expect(await lockRow(trx, 'members', user.id)).toBe(true);
      expect(await lockRow(trx, 'members', 2_000_000_000)).toBe(false);
    });
  });

  it(`a member's share links stop at ${chatSharesMax}, however many are asked for at once`, async () => {
    const { token } = await t.loginMember();
    const as = { area: 'member' as const, token };
    const conversation = await newConversation(t, token, seeded.room.id);
    const create = () =>
      t.post<ChatShareRecord>('/api/aigc/share/create', { conversationId: conversation.id }, as);
    for (let i = 0; i < chatSharesMax - 5; i += 1) expect((await create()).json.code).toBe(0);
    const parallel = await Promise.all(Array.from({ length: 20 }, create));
    expect(parallel.filter((r) => r.json.code === 0)).toHaveLength(5);
    for (const refused of parallel.filter((r) => r.json.code !== 0))
      expect(refused.json.msg).toBe(`你已有 ${chatSharesMax} 个分享链接：请先撤销一些`);
  });
});
