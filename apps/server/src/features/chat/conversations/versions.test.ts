import type {
  ChatSendResponse,
  MessageListResponse,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import type {
  ChatExportFile,
  ChatImportResponse,
  ChatShareRecord,
  ChatShareView,
} from '@atrium/shared/contract/chat-export';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDbKinds } from '../../../testing/db';
import { startFakeOpenAi, type ChatBody, type FakeOpenAi } from '../../../testing/fake-openai';
import { authHeaders, createTestApp, type TestApp } from '../../../testing/test-app';
import { chatDb } from '../chat.tables';
import {
  eventually,
  expectOk,
  listen,
  newConversation,
  postIn,
  readStream,
  seedRoom,
  send,
  TEST_API_KEY,
  type Seeded,
  removeQuota,
} from '../chat.testing';

/** Regenerate keeps the earlier answer as a version of the same turn (issue 28, point 6). */
describe.each(testDbKinds)('versions of an answer on %s', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let base: string;
  let seeded: Seeded;

  const as = (token: string) => ({ area: 'member' as const, token });
  const member = async () => (await t.loginMember()).token;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({ db: kind });
    base = await listen(t.app);
    seeded = await seedRoom(t, fake, { title: 'Fruit room' });
    await removeQuota(t, seeded);
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });
  afterEach(() => {
    fake.setDefault((body: ChatBody) => ({
      text: `You said: ${String(body.messages?.at(-1)?.content ?? '')}`,
    }));
  });

  async function shown(token: string, conversationId: number): Promise<MessageRecord[]> {
    const data = await expectOk<MessageListResponse>(
      t,
      '/api/aigc/message/list',
      { conversationId, limit: 100 },
      as(token),
    );
    return data.records;
  }

  /** Waits until every answer of the shown branch has ended; answers the branch. */
  async function settled(token: string, conversationId: number): Promise<MessageRecord[]> {
    return eventually(async () => {
      const records = await shown(token, conversationId);
      return records.some((m) => m.status === 'streaming') ? undefined : records;
    });
  }

  async function ask(token: string, conversationId: number, content: string, answer: string) {
    fake.script({ text: answer });
    const { json } = await send(t, token, conversationId, content);
    expect(json.code, json.msg).toBe(0);
    await settled(token, conversationId);
    return json.data;
  }

  async function regenerate(token: string, messageId: number, answer: string) {
    fake.script({ text: answer });
    const again = await expectOk<MessageRecord>(
      t,
      '/api/aigc/chat/regenerate',
      { messageId },
      as(token),
    );
    return again;
  }

  const showVersion = (token: string, messageId: number) =>
    expectOk(t, '/api/aigc/conversation/branch', { messageId }, as(token));

  const contents = (records: MessageRecord[]) => records.map((m) => m.content);

  /** The prompt of the latest completion, without the system prompt. */
  const lastPrompt = () =>
    (fake.completions().at(-1)?.body as ChatBody).messages
      ?.filter((m) => m.role !== 'system')
      .map((m) => m.content);

  /** A conversation whose second answer was written three times: versions a, b, c. */
  async function threeVersions(token: string) {
    const conversation = await newConversation(t, token, seeded.room.id);
    await ask(token, conversation.id, 'Name a red fruit', 'Cherry');
    const first = await ask(token, conversation.id, 'And a yellow one?', 'Lemon');
    const a = first.assistantMessage.id;
    const second = await regenerate(token, a, 'Banana');
    await settled(token, conversation.id);
    const third = await regenerate(token, second.id, 'Pineapple');
    await settled(token, conversation.id);
    return { conversation, question: first.userMessage.id, a, b: second.id, c: third.id };
  }

  it('keeps every regenerated answer as a version; the new one streams and is shown', async () => {
    const token = await member();
    const conversation = await newConversation(t, token, seeded.room.id);
    await ask(token, conversation.id, 'Name a red fruit', 'Cherry');
    const sent = await ask(token, conversation.id, 'And a yellow one?', 'Lemon');
    const a = sent.assistantMessage.id;

    const second = await regenerate(token, a, 'Banana');
    expect(second).toMatchObject({ status: 'streaming', content: '', versions: [a, second.id] });
    expect(second.id).not.toBe(a);
    const read = await readStream(base, token, { messageId: second.id });
    expect(read.text).toBe('Banana');
    // Written from the branch up to the question, without the earlier version.
    expect(lastPrompt()).toEqual(['Name a red fruit', 'Cherry', 'And a yellow one?']);

    const third = await regenerate(token, second.id, 'Pineapple');
    expect(third.versions).toEqual([a, second.id, third.id]);
    const records = await settled(token, conversation.id);
    expect(contents(records)).toEqual([
      'Name a red fruit',
      'Cherry',
      'And a yellow one?',
      'Pineapple',
    ]);
    expect(records.at(-1)).toMatchObject({ id: third.id, versions: [a, second.id, third.id] });
    // A question asked once and an answer written once carry no versions.
    expect(records.slice(0, 3).map((m) => m.versions)).toEqual([undefined, undefined, undefined]);

    // Each version holds its own text; switching shows it, with the same list of versions.
    for (const [id, text] of [
      [a, 'Lemon'],
      [second.id, 'Banana'],
      [third.id, 'Pineapple'],
    ] as const) {
      await showVersion(token, id);
      const now = await shown(token, conversation.id);
      expect(now.at(-1)).toMatchObject({ id, content: text, versions: [a, second.id, third.id] });
    }
  });

  it('uses the shown version in later prompts, and keeps what followed each version', async () => {
    const token = await member();
    const { conversation, a, b, c } = await threeVersions(token);
    await showVersion(token, a);
    await ask(token, conversation.id, 'Why that one?', 'Because it is sour');
    expect(lastPrompt()).toEqual([
      'Name a red fruit',
      'Cherry',
      'And a yellow one?',
      'Lemon',
      'Why that one?',
    ]);
    // The conversation after version 1 goes with it; version 3 has nothing after it.
    await showVersion(token, c);
    expect(contents(await shown(token, conversation.id)).slice(-1)).toEqual(['Pineapple']);
    await showVersion(token, a);
    expect(contents(await shown(token, conversation.id)).slice(-3)).toEqual([
      'Lemon',
      'Why that one?',
      'Because it is sour',
    ]);
    // Only the end of the shown branch can be written again: version 1 is no longer its end.
    const notLast = await postIn(t, 'en', '/api/aigc/chat/regenerate', { messageId: a }, as(token));
    expect(notLast).toMatchObject({ data: { error: 'chat.notLastAnswer' } });
    // Version 2 shown, a regeneration adds a fourth version beside the three.
    await showVersion(token, b);
    const fourth = await regenerate(token, b, 'Mango');
    expect(fourth.versions).toEqual([a, b, c, fourth.id]);
    await settled(token, conversation.id);
  });

  it('shows the current version in exports and share links; the JSON export round-trips all', async () => {
    const token = await member();
    const { conversation, a, b } = await threeVersions(token);
    await showVersion(token, b);

    const exported = async (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/aigc/conversation/export',
        headers: { 'content-type': 'application/json', ...authHeaders('member', token) },
        payload: JSON.stringify({ conversationId: conversation.id, ...body }),
      });
    const md = (await exported({ format: 'markdown', lang: 'en' })).body;
    expect(md).toContain('Banana');
    expect(md).not.toContain('Lemon');
    expect(md).not.toContain('Pineapple');
    expect(md).toContain('> Version 2 of 3 of this answer; the JSON export holds the others.');
    expect((await exported({ format: 'markdown', lang: 'zh-CN' })).body).toContain(
      '> 此回答的第 2 个版本（共 3 个）；其他版本见 JSON 导出。',
    );

    const share = await expectOk<ChatShareRecord>(
      t,
      '/api/aigc/share/create',
      { conversationId: conversation.id },
      as(token),
    );
    expect(share.messages).toBe(4);
    const seen = await expectOk<ChatShareView>(
      t,
      '/api/aigc/share/view',
      { token: share.token },
      as(await member()),
    );
    expect(seen.messages.map((m) => m.content)).toEqual([
      'Name a red fruit',
      'Cherry',
      'And a yellow one?',
      'Banana',
    ]);

    const file = JSON.parse((await exported({ format: 'json' })).body) as ChatExportFile;
    const [c] = file.conversations;
    expect(c?.messages.map((m) => m.content)).toEqual([
      'Name a red fruit',
      'Cherry',
      'And a yellow one?',
      'Lemon',
      'Banana',
      'Pineapple',
    ]);
    expect(c?.leafId).toBe(b);
    expect(new Set(c?.messages.slice(3).map((m) => m.parentId))).toEqual(
      new Set([c?.messages[2]?.id]),
    );

    const imported = await expectOk<ChatImportResponse>(
      t,
      '/api/aigc/conversation/import',
      { file: JSON.stringify(file) },
      as(token),
    );
    expect(imported.messages).toBe(6);
    const copy = imported.conversations[0]?.id ?? 0;
    const restored = await shown(token, copy);
    expect(contents(restored)).toEqual(contents(await shown(token, conversation.id)));
    const versions = restored.at(-1)?.versions ?? [];
    expect(versions).toHaveLength(3);
    expect(versions.indexOf(restored.at(-1)?.id ?? 0)).toBe(1);
    await showVersion(token, versions[0] ?? 0);
    expect((await shown(token, copy)).at(-1)?.content).toBe('Lemon');
    // The version shown in the copy is its own: the original still shows version 2.
    expect((await shown(token, conversation.id)).at(-1)?.id).toBe(b);
    expect(a).toBeLessThan(b);
  });

  it('stops a regenerated answer as any other, settles each version on its own, and refuses a second at once', async () => {
    const token = await member();
    const conversation = await newConversation(t, token, seeded.room.id);
    const sent = await ask(token, conversation.id, 'Count slowly', 'one two');
    const first = sent.assistantMessage.id;

    fake.script({ text: 'three four five', hang: true });
    const count = fake.completions().length;
    const again = await expectOk<MessageRecord>(
      t,
      '/api/aigc/chat/regenerate',
      { messageId: first },
      as(token),
    );
    await fake.waitFor(() => (fake.completions()[count]?.chunksSent ?? 0) >= 3);
    // While it streams, neither it nor the earlier version may be written again.
    for (const id of [again.id, first]) {
      const busy = await postIn(t, 'en', '/api/aigc/chat/regenerate', { messageId: id }, as(token));
      expect(busy).toMatchObject({ code: -1 });
    }
    const stopped = await expectOk<MessageRecord>(
      t,
      '/api/aigc/chat/stop',
      { messageId: again.id },
      as(token),
    );
    expect(stopped).toMatchObject({ id: again.id, status: 'stopped', content: 'three four five' });
    await fake.waitFor(() => fake.completions()[count]?.aborted === true);
    const records = await settled(token, conversation.id);
    expect(records.at(-1)).toMatchObject({ id: again.id, versions: [first, again.id] });
    await showVersion(token, first);
    expect((await shown(token, conversation.id)).at(-1)).toMatchObject({
      content: 'one two',
      status: 'done',
    });

    // Each version reserved and settled its own row of the usage ledger.
    const usage = await eventually(async () => {
      const rows = await chatDb(t.db)
        .selectFrom('chatUsage')
        .select(['messageId', 'settled'])
        .where('messageId', 'in', [first, again.id])
        .orderBy('messageId')
        .execute();
      return rows.length === 2 && rows.every((r) => r.settled === 1) ? rows : undefined;
    });
    expect(usage.map((r) => r.messageId)).toEqual([first, again.id]);

    // Two regenerations at once: one new version, the other refused, nothing left behind.
    fake.setDefault(() => ({ text: 'again' }));
    const both = await Promise.all(
      [0, 1].map(() =>
        t.post<MessageRecord>('/api/aigc/chat/regenerate', { messageId: first }, as(token)),
      ),
    );
    expect(both.map((r) => r.json.code).sort()).toEqual([-1, 0]);
    const after = await settled(token, conversation.id);
    expect(after.at(-1)?.versions).toHaveLength(3);
  });

  it('works on conversations stored before versions (no leaf, answers regenerated in place)', async () => {
    const token = await member();
    const conversation = await newConversation(t, token, seeded.room.id);
    const sent = await ask(token, conversation.id, 'Old question', 'Old answer');
    await sql`update chat_conversations set leaf_id = null where id = ${conversation.id}`.execute(
      t.db,
    );
    const again = await regenerate(token, sent.assistantMessage.id, 'New answer');
    expect(again.versions).toEqual([sent.assistantMessage.id, again.id]);
    expect(contents(await settled(token, conversation.id))).toEqual(['Old question', 'New answer']);
    await showVersion(token, sent.assistantMessage.id);
    expect(contents(await shown(token, conversation.id))).toEqual(['Old question', 'Old answer']);
  });

  it('answers a send with the versions of an edited question, as before', async () => {
    const token = await member();
    const conversation = await newConversation(t, token, seeded.room.id);
    const sent = await ask(token, conversation.id, 'First words', 'Reply');
    const edited = await expectOk<ChatSendResponse>(
      t,
      '/api/aigc/chat/edit',
      { messageId: sent.userMessage.id, content: 'Other words' },
      as(token),
    );
    expect(edited.userMessage.versions).toEqual([sent.userMessage.id, edited.userMessage.id]);
    expect(edited.assistantMessage.versions).toBeUndefined();
    await settled(token, conversation.id);
  });
});
