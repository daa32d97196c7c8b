import type {
  ConversationRecord,
  MessageListResponse,
  RecordsResponse,
} from '@atrium/shared/contract/chat';
import { chatImportMaxChars } from '@atrium/shared/contract/chat-export-limits';
import { maxSearchWords } from '@atrium/shared/contract/chat-search';
import { render } from '@atrium/shared/messages/catalogue';
import type { Generated } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedError } from '../../db/migrations/2026_12_03_2000_chat_message_keys';
import { startFakeOpenAi, type FakeOpenAi } from '../../testing/fake-openai';
import { testDbKinds } from '../../testing/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { errorToStore, readError, storedError } from './chat-texts';
import { expectOk, postIn, removeQuota, seedRoom, TEST_API_KEY, type Seeded } from './chat.testing';
import { EndMessages } from './streaming/index';

describe('stored chat texts', () => {
  it('stores an error as its message and reads it back', () => {
    expect(EndMessages.interrupted).toBe('{"key":"chat.answerInterrupted"}');
    expect(readError(EndMessages.idle(7))).toEqual({
      key: 'chat.answerIdle',
      params: { seconds: 7 },
    });
    expect(readError('The model provider refused the request')).toBeUndefined();
    expect(storedError({ key: 'ai.providerError', params: { detail: 'a\0b' } })).not.toContain(
      '\\u0000',
    );
  });

  it('turns an export file’s error text in either language back into its message', () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      expect(errorToStore(render(lang, { key: 'chat.answerInterrupted' }))).toBe(
        EndMessages.interrupted,
      );
      expect(errorToStore(render(lang, { key: 'chat.answerIdle', params: { seconds: 30 } }))).toBe(
        EndMessages.idle(30),
      );
    }
    expect(errorToStore('something else')).toBe('something else');
  });

  it('migrates the English texts stored before keys', () => {
    expect(
      keyedError('The answer was interrupted (the server restarted). What was written is kept.'),
    ).toBe(EndMessages.interrupted);
    expect(
      keyedError(
        'The model stopped answering for 45 seconds, so the answer was cut off. Try again.',
      ),
    ).toBe(EndMessages.idle(45));
    expect(keyedError('The model provider refused the request (HTTP 503): busy')).toBe(
      storedError({ key: 'ai.providerRefused', params: { status: 503, detail: 'busy' } }),
    );
    expect(keyedError('Something a provider said')).toBeUndefined();
  });

  it('names the limits its texts state', () => {
    expect(render('en', { key: 'chat.importTooBig' })).toContain(
      `${chatImportMaxChars / 1024 / 1024} MB`,
    );
    expect(render('en', { key: 'chat.searchTooManyWords', params: { field: 'x' } })).toContain(
      `${maxSearchWords} words`,
    );
  });
});

describe.each(testDbKinds)('chat texts in the reader’s language on %s', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let seeded: Seeded;
  const as = (token: string) => ({ area: 'member' as const, token });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({ db: kind });
    seeded = await seedRoom(t, fake);
    await removeQuota(t, seeded);
  });

  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  it('names a new conversation in each reader’s language, and stores no words for it', async () => {
    const { token } = await t.loginMember();
    const zh = await postIn<ConversationRecord>(
      t,
      'zh-CN',
      '/api/aigc/conversation/create',
      { roomId: seeded.room.id },
      as(token),
    );
    expect(zh.data.title).toBe('新对话');
    const en = await postIn<RecordsResponse<ConversationRecord>>(
      t,
      'en',
      '/api/aigc/conversation/list',
      { roomId: seeded.room.id },
      as(token),
    );
    expect(en.data.records.find((c) => c.id === zh.data.id)?.title).toBe('New chat');
    const listedZh = await postIn<RecordsResponse<ConversationRecord>>(
      t,
      'zh-CN',
      '/api/aigc/conversation/list',
      { roomId: seeded.room.id },
      as(token),
    );
    expect(listedZh.data.records.find((c) => c.id === zh.data.id)?.title).toBe('新对话');
    const row = await t.db
      .withTables<{ chatConversations: { id: number; title: string } }>()
      .selectFrom('chatConversations')
      .select('title')
      .where('id', '=', zh.data.id)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('');
  });

  it('reads an interrupted answer’s stored reason in each reader’s language', async () => {
    const { token } = await t.loginMember();
    const conversation = await expectOk<ConversationRecord>(
      t,
      '/api/aigc/conversation/create',
      { roomId: seeded.room.id },
      as(token),
    );
    const db = t.db.withTables<{
      chatMessages: {
        id: Generated<number>;
        conversationId: number;
        parentId: number | null;
        role: string;
        content: string;
        images: string;
        status: string;
        error: string;
        createdAt: number;
        updatedAt: number;
      };
      chatConversations: { id: number; leafId: number | null };
    }>();
    const inserted = await db
      .insertInto('chatMessages')
      .values({
        conversationId: conversation.id,
        parentId: null,
        role: 'assistant',
        content: 'Half an ans',
        images: '[]',
        status: 'interrupted',
        error: EndMessages.interrupted,
        createdAt: 1,
        updatedAt: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('chatConversations')
      .set({ leafId: inserted.id })
      .where('id', '=', conversation.id)
      .execute();
    const read = async (lang: string) =>
      (
        await postIn<MessageListResponse>(
          t,
          lang,
          '/api/aigc/message/list',
          { conversationId: conversation.id },
          as(token),
        )
      ).data.records.find((m) => m.id === inserted.id);
    expect(await read('zh-CN')).toMatchObject({
      status: 'interrupted',
      error: '服务器重启，回答已中断；已写出的内容会保留。',
      errorKey: 'chat.answerInterrupted',
      errorParams: {},
    });
    expect(await read('en')).toMatchObject({
      error: 'The answer was interrupted (the server restarted). What was written is kept.',
      errorKey: 'chat.answerInterrupted',
    });
  });
});
