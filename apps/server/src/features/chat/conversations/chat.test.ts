import type { AreaName } from '@atrium/shared/areas';
import { Code } from '@atrium/shared';
import type {
  AdminRoomRecord,
  ChatQuota,
  ChatSendResponse,
  ConversationHit,
  ConversationRecord,
  MessageListResponse,
  MessageRecord,
  ModelRecord,
  ProviderRecord,
  RecordsResponse,
  RoomRecord,
  UsageResponse,
} from '@atrium/shared/contract/chat';
import type { AppConfigResponse } from '@atrium/shared';
import { pino } from 'pino';
import sharp from 'sharp';
import { FileClient, useUploadConfig } from '../../library/library.testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeOpenAi,
  tokens,
  type ChatBody,
  type FakeOpenAi,
} from '../../../testing/fake-openai';
import { testDbKinds } from '../../../testing/db';
import { createTestApp, type TestApp, withMovableSystemClock } from '../../../testing/test-app';
import { excerptWithRanges } from '../excerpt';
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
  unlimited,
} from '../chat.testing';

const longAnswer = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

describe.each(testDbKinds)('chat rooms on %s', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let base: string;
  let seeded: Seeded;
  const logs: string[] = [];
  /** Every envelope any test received, to prove the API key never left the server. */
  const answers: string[] = [];

  const member = async () => (await t.loginMember()).token;
  const as = (token: string) => ({ area: 'member' as const, token });
  const admin = () => ({ area: 'admin' as const, token: seeded.adminToken });

  async function messages(token: string, conversationId: number): Promise<MessageRecord[]> {
    const data = await expectOk<MessageListResponse>(
      t,
      '/api/aigc/message/list',
      { conversationId },
      as(token),
    );
    answers.push(JSON.stringify(data));
    return data.records;
  }

  async function finalMessage(token: string, conversationId: number, id: number) {
    return eventually(async () => {
      const found = (await messages(token, conversationId)).find((m) => m.id === id);
      return found && found.status !== 'streaming' ? found : undefined;
    });
  }

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({
      db: kind,
      deps: {
        logger: pino({ level: 'trace' }, { write: (line: string) => void logs.push(line) }),
        aigc: { generation: { idleTimeoutMs: 1_500 } },
      },
    });
    const post = t.post.bind(t);
    t.post = async <T>(url: string, body?: unknown, who?: { area: AreaName; token: string }) => {
      const result = await post<T>(url, body, who);
      answers.push(result.res.body);
      return result;
    };
    base = await listen(t.app);
    seeded = await seedRoom(t, fake, {
      systemPrompt: 'You are a helpful pirate.',
      params: { temperature: 0.3, max_tokens: 256, top_p: 0.9 },
      prompts: [{ name: 'Greet', value: 'Say hello' }],
      description:
        '<p>Hi <b>there</b><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a></p>',
    });
    await expectOk(t, '/admin/api/aigc/usage/quota_save', unlimited, admin());
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

  describe('providers and models (admin)', () => {
    it('stores the key sealed and answers only that one is set', async () => {
      const { records } = await expectOk<RecordsResponse<ProviderRecord>>(
        t,
        '/admin/api/aigc/provider/list',
        {},
        admin(),
      );
      const provider = records.find((p) => p.id === seeded.provider.id);
      expect(provider).toMatchObject({ hasKey: true, keyHint: '••••cdef', baseUrl: fake.url });
      expect(provider?.models.map((m) => m.name)).toEqual(['fake-model']);
      const row = await t.db
        .withTables<{ aiProviders: { id: number; apiKeySealed: string } }>()
        .selectFrom('aiProviders')
        .select('apiKeySealed')
        .where('id', '=', seeded.provider.id)
        .executeTakeFirstOrThrow();
      expect(row.apiKeySealed).toMatch(/^v1\./);
      expect(row.apiKeySealed).not.toContain('SECRET');
    });

    it('keeps the key when a save leaves it out, and tests the connection with it', async () => {
      await expectOk(
        t,
        '/admin/api/aigc/provider/save',
        { id: seeded.provider.id, name: 'Fake AI', baseUrl: `${fake.url}/` },
        admin(),
      );
      const test = await expectOk<{ method: string; models: string[] }>(
        t,
        '/admin/api/aigc/provider/test',
        { id: seeded.provider.id },
        admin(),
      );
      expect(test).toMatchObject({ method: 'models', models: ['fake-model', 'fake-vision'] });
      expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    });

    it('says why a connection test fails, without echoing the key', async () => {
      const { json } = await t.post(
        '/admin/api/aigc/provider/test',
        { baseUrl: fake.url, apiKey: 'sk-wrong-key-that-is-long-enough' },
        admin(),
      );
      expect(json.code).toBe(Code.Failure);
      expect(json.msg).toContain('HTTP 401');
      expect(json.msg).not.toContain('sk-wrong-key-that-is-long-enough');
    });
  });

  describe('rooms', () => {
    it('sanitises the description: no script, handler or javascript: link survives', () => {
      expect(seeded.room.description).toBe('<p>Hi <b>there</b><img src="x" /><a>x</a></p>');
    });

    it('lists enabled rooms for visitors, and app/config hashes change when a room is saved', async () => {
      const before = await expectOk<AppConfigResponse>(t, '/api/app/config', {});
      const hidden = await expectOk<AdminRoomRecord>(
        t,
        '/admin/api/aigc/chat_room/save',
        { id: 0, title: 'Hidden room', enabled: false },
        admin(),
      );
      const noModel = await expectOk<AdminRoomRecord>(
        t,
        '/admin/api/aigc/chat_room/save',
        { id: 0, title: 'Empty room', sort: -1 },
        admin(),
      );
      const after = await expectOk<AppConfigResponse>(t, '/api/app/config', {});
      expect(after.hashLazyValue.Rooms).toMatch(/^[0-9a-f]{16}$/);
      expect(after.hashLazyValue.Rooms).not.toBe(before.hashLazyValue.Rooms);

      const { records } = await expectOk<RecordsResponse<RoomRecord>>(
        t,
        '/api/aigc/chat_room/all',
        {},
      );
      expect(records.map((r) => r.title)).toEqual(['Empty room', 'Test room']);
      expect(records[0]?.model).toBeNull();
      expect(records[1]?.model).toEqual({ title: 'Fake Model', vision: false });
      expect(JSON.stringify(records)).not.toContain('pirate');
      const { json } = await t.post('/api/aigc/chat_room/get', { id: hidden.id });
      expect(json).toMatchObject({
        code: Code.Failure,
        msg: '聊天室不存在',
        data: { error: 'rooms.notFound' },
      });
      expect(await postIn(t, 'en', '/api/aigc/chat_room/get', { id: hidden.id })).toMatchObject({
        msg: 'Room not found',
        data: { error: 'rooms.notFound' },
      });

      const token = await member();
      const conversation = await newConversation(t, token, noModel.id);
      const refused = await send(t, token, conversation.id, 'hello?');
      expect(refused.json.code).toBe(Code.Failure);
      expect(refused.json).toMatchObject({
        msg: '该聊天室还没有配置 AI 模型，暂时无法回答。请联系管理员配置。',
        data: { error: 'chat.noModel' },
      });
      await expectOk(t, '/admin/api/aigc/chat_room/delete', { id: noModel.id }, admin());
      await expectOk(t, '/admin/api/aigc/chat_room/delete', { id: hidden.id }, admin());
    });

    it('keeps a room’s downloads in order for members, and refuses addresses that are not files', async () => {
      const library = new FileClient(t, admin(), 'file');
      const intro = await library.uploadAndSave({
        name: 'intro.pdf',
        data: Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'),
      });
      const downloads = [intro.path, 'https://example.com/guide.zip'];
      // An address of the library that holds no file is refused (issue 17: no dangling use).
      const missing = await t.post(
        '/admin/api/aigc/chat_room/save',
        {
          id: 0,
          title: 'Downloads room',
          downloads: ['/data/file/0123456789abcdef01234567/intro.pdf'],
        },
        admin(),
      );
      // The refusal's words are the file library's (files.fileGone).
      expect(missing.json.code).toBe(Code.Failure);
      const saved = await expectOk<AdminRoomRecord>(
        t,
        '/admin/api/aigc/chat_room/save',
        { id: 0, title: 'Downloads room', downloads },
        admin(),
      );
      expect(saved.downloads).toEqual(downloads);
      const shown = await expectOk<RoomRecord>(t, '/api/aigc/chat_room/get', { id: saved.id });
      expect(shown.downloads).toEqual(downloads);
      for (const bad of ['javascript:alert(1)', '//evil.example/x.zip']) {
        const { json } = await t.post(
          '/admin/api/aigc/chat_room/save',
          { id: saved.id, title: 'Downloads room', downloads: [bad] },
          admin(),
        );
        expect(json.code, bad).toBe(Code.Failure);
        expect(json.data, bad).toMatchObject({
          error: 'chat.downloadAddress',
          field: 'downloads.0',
        });
      }
      const tooMany = await t.post(
        '/admin/api/aigc/chat_room/save',
        { id: saved.id, title: 'Downloads room', downloads: Array(21).fill(downloads[0]) },
        admin(),
      );
      expect(tooMany.json).toMatchObject({
        msg: '下载文件最多 20 项',
        data: { error: 'validation.tooMany', params: { max: 20 } },
      });
      expect(
        (await expectOk<RoomRecord>(t, '/api/aigc/chat_room/get', { id: saved.id })).downloads,
      ).toEqual(downloads);
      await expectOk(t, '/admin/api/aigc/chat_room/delete', { id: saved.id }, admin());
    });

    it('refuses parameters it does not know', async () => {
      const { json } = await t.post(
        '/admin/api/aigc/chat_room/save',
        { id: 0, title: 'Bad', params: { temperature: 0.5, evil: 1 } },
        admin(),
      );
      expect(json).toMatchObject({
        code: Code.Failure,
        msg: '未知字段：params.evil',
        data: { error: 'validation.unknownField', field: 'params.evil' },
      });
    });
  });

  describe('chat', () => {
    it('edits a question into a new branch beside the old one; switching shows either, whole', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      const ask = async (content: string, answer: string) => {
        fake.script({ text: answer });
        const sent = await send(t, token, conversation.id, content);
        expect(sent.json.code, sent.json.msg).toBe(0);
        await readStream(base, token, { messageId: sent.json.data.assistantMessage.id });
        return sent.json.data;
      };
      const shown = async () =>
        (await messages(token, conversation.id)).map((m) =>
          m.versions
            ? `${m.content} (${m.versions.indexOf(m.id) + 1}/${m.versions.length})`
            : m.content,
        );
      const first = await ask('Name a red fruit', 'Cherry');
      await ask('And a yellow one?', 'Lemon');

      fake.script({ text: 'Strawberry' });
      const edited = await t.post<ChatSendResponse>(
        '/api/aigc/chat/edit',
        { messageId: first.userMessage.id, content: 'Name a sweet red fruit' },
        as(token),
      );
      expect(edited.json.code, edited.json.msg).toBe(0);
      expect(edited.json.data.userMessage.versions).toEqual([
        first.userMessage.id,
        edited.json.data.userMessage.id,
      ]);
      await readStream(base, token, { messageId: edited.json.data.assistantMessage.id });
      // The new branch is answered from what comes before the question only.
      expect((fake.completions().at(-1)?.body as ChatBody).messages).toEqual([
        { role: 'system', content: 'You are a helpful pirate.' },
        { role: 'user', content: 'Name a sweet red fruit' },
      ]);
      expect(await shown()).toEqual(['Name a sweet red fruit (2/2)', 'Strawberry']);

      // Back to the first version: its whole branch, answers included, as it was.
      await expectOk(
        t,
        '/api/aigc/conversation/branch',
        { messageId: first.userMessage.id },
        as(token),
      );
      expect(await shown()).toEqual([
        'Name a red fruit (1/2)',
        'Cherry',
        'And a yellow one?',
        'Lemon',
      ]);
      // A message sent now continues that branch, with its history.
      await ask('And a green one?', 'Lime');
      expect((fake.completions().at(-1)?.body as ChatBody).messages?.slice(1)).toEqual([
        { role: 'user', content: 'Name a red fruit' },
        { role: 'assistant', content: 'Cherry' },
        { role: 'user', content: 'And a yellow one?' },
        { role: 'assistant', content: 'Lemon' },
        { role: 'user', content: 'And a green one?' },
      ]);
      // Only the end of the shown branch can be regenerated.
      const hidden = edited.json.data.assistantMessage.id;
      for (const [lang, msg] of [
        ['zh-CN', '只能重新生成当前分支的最新回答'],
        ['en', 'Only the latest answer can be regenerated'],
      ] as const) {
        const notLast = await postIn(
          t,
          lang,
          '/api/aigc/chat/regenerate',
          { messageId: hidden },
          as(token),
        );
        expect(notLast).toMatchObject({ msg, data: { error: 'chat.notLastAnswer' } });
      }
      await expectOk(
        t,
        '/api/aigc/conversation/branch',
        { messageId: edited.json.data.userMessage.id },
        as(token),
      );
      expect(await shown()).toEqual(['Name a sweet red fruit (2/2)', 'Strawberry']);

      // Answers are not edited; nobody edits or switches another member's conversation.
      const answer = await t.post(
        '/api/aigc/chat/edit',
        { messageId: hidden, content: 'x' },
        as(token),
      );
      expect(answer.json).toMatchObject({
        msg: '只能编辑你自己提的问题',
        data: { error: 'chat.notQuestion' },
      });
      const english = await postIn(
        t,
        'en',
        '/api/aigc/chat/edit',
        { messageId: hidden, content: 'x' },
        as(token),
      );
      expect(english).toMatchObject({
        msg: 'Only your own questions can be edited',
        data: { error: 'chat.notQuestion' },
      });
      const stranger = await member();
      for (const [path, body] of [
        ['/api/aigc/chat/edit', { messageId: first.userMessage.id, content: 'mine now' }],
        ['/api/aigc/conversation/branch', { messageId: first.userMessage.id }],
      ] as const) {
        expect((await t.post(path, body, as(stranger))).json.code).toBe(Code.Failure);
      }
      expect(await shown()).toEqual(['Name a sweet red fruit (2/2)', 'Strawberry']);
    });

    it('searches the member’s conversations in a room by title and content, with an excerpt', async () => {
      const token = await member();
      const search = (keywords: string) =>
        t.post<RecordsResponse<ConversationHit>>(
          '/api/aigc/conversation/search',
          { roomId: seeded.room.id, keywords },
          as(token),
        );
      const pruning = await newConversation(t, token, seeded.room.id);
      fake.script({ text: 'Cut above an outward bud.' });
      const asked = await send(
        t,
        token,
        pruning.id,
        'In early spring, how far back should I prune my climbing ROSES against the south wall of the old garden house?',
      );
      await readStream(base, token, { messageId: asked.json.data.assistantMessage.id });
      const winter = await newConversation(t, token, seeded.room.id);
      await expectOk(
        t,
        '/api/aigc/conversation/rename',
        { id: winter.id, title: 'Roses in winter' },
        as(token),
      );
      await newConversation(t, token, seeded.room.id);
      // Somebody else's roses stay theirs.
      const other = await member();
      const theirs = await newConversation(t, other, seeded.room.id);
      await expectOk(
        t,
        '/api/aigc/conversation/rename',
        { id: theirs.id, title: 'roses too' },
        as(other),
      );

      const found = (await search('roses')).json;
      expect(found.code, found.msg).toBe(0);
      expect(found.data.records.map((h) => h.conversation.id)).toEqual([winter.id, pruning.id]);
      expect(found.data.records[0]?.excerpt).toBe('');
      expect(found.data.records[1]?.excerpt).toBe(
        '…how far back should I prune my climbing ROSES against the south wall of the old garde…',
      );
      // An answer's text counts too; % and _ are plain characters.
      expect((await search('OUTWARD bud')).json.data.records[0]?.excerpt).toBe(
        'Cut above an outward bud.',
      );
      expect((await search('%')).json.data.records).toEqual([]);
      expect(
        excerptWithRanges('## Tips\n\nUse **bold** and `code`:\n```js\nx()\n```', ['bold']).excerpt,
      ).toBe('Tips Use bold and code: x()');
      const empty = (await search('   ')).json;
      expect(empty.code).toBe(Code.Failure);
      expect(empty.msg).toBe('请填写关键词');
      expect(empty.data).toMatchObject({ error: 'validation.required', field: 'keywords' });
    });

    it('sends the system prompt, history and parameters to the provider and streams the answer', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ text: 'Ahoy there matey' });
      const first = await send(t, token, conversation.id, 'Hello');
      expect(first.json.code, first.json.msg).toBe(0);
      expect(first.json.data.assistantMessage.status).toBe('streaming');
      const read = await readStream(base, token, {
        messageId: first.json.data.assistantMessage.id,
      });
      expect(read.contentType).toMatch(/^text\/event-stream/);
      expect(read.text).toBe('Ahoy there matey');
      expect(read.events.filter((e) => e.event === 'delta').length).toBeGreaterThanOrEqual(1);
      expect(read.events.at(-1)).toMatchObject({
        event: 'done',
        data: { status: 'done', usage: { completionTokens: 4, estimated: false } },
      });

      fake.script({ text: 'Arr' });
      const second = await send(t, token, conversation.id, 'Again');
      await readStream(base, token, { messageId: second.json.data.assistantMessage.id });
      const body = fake.completions().at(-1)?.body as ChatBody;
      expect(body).toMatchObject({
        model: 'fake-model',
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.3,
        max_tokens: 256,
        top_p: 0.9,
        messages: [
          { role: 'system', content: 'You are a helpful pirate.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Ahoy there matey' },
          { role: 'user', content: 'Again' },
        ],
      });
      const stored = await messages(token, conversation.id);
      expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([
        ['user', 'Hello', 'done'],
        ['assistant', 'Ahoy there matey', 'done'],
        ['user', 'Again', 'done'],
        ['assistant', 'Arr', 'done'],
      ]);
      const list = await expectOk<RecordsResponse<ConversationRecord>>(
        t,
        '/api/aigc/conversation/list',
        { roomId: seeded.room.id },
        as(token),
      );
      expect(list.records[0]).toMatchObject({ id: conversation.id, title: 'Hello' });
    });

    it('keeps writing when the client disconnects mid-stream, and stores the full answer', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ text: longAnswer, delayMs: 15 });
      const sent = await send(t, token, conversation.id, 'Tell me a long story');
      const id = sent.json.data.assistantMessage.id;
      const partial = await readStream(
        base,
        token,
        { messageId: id },
        { stopWhen: (r) => r.text.length > 20 },
      );
      expect(partial.text.length).toBeLessThan(longAnswer.length);
      const final = await finalMessage(token, conversation.id, id);
      expect(final).toMatchObject({ status: 'done', content: longAnswer, tokensEstimated: false });
      expect(fake.completions().at(-1)).toMatchObject({ finished: true, aborted: false });
    });

    it('re-attaches from the offset a client holds: no gap, no repeat', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ text: longAnswer, delayMs: 10 });
      const sent = await send(t, token, conversation.id, 'Count');
      const id = sent.json.data.assistantMessage.id;
      const first = await readStream(
        base,
        token,
        { messageId: id },
        { stopWhen: (r) => r.text.length > 30 },
      );
      const resumed = await readStream(
        base,
        token,
        { messageId: id, offset: first.text.length },
        { start: first.text },
      );
      expect(resumed.text).toBe(longAnswer);
      const late = await readStream(
        base,
        token,
        { messageId: id, offset: 10 },
        { start: longAnswer.slice(0, 10) },
      );
      expect(late.text).toBe(longAnswer);
      expect(late.events.at(-1)?.event).toBe('done');
    });

    it('stop aborts the upstream request and keeps what was written', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ text: longAnswer, delayMs: 30, hang: true });
      const count = fake.completions().length;
      const sent = await send(t, token, conversation.id, 'Go on forever');
      const id = sent.json.data.assistantMessage.id;
      const request = () => fake.completions()[count];
      await fake.waitFor(() => (request()?.chunksSent ?? 0) >= 3);
      const reading = readStream(base, token, { messageId: id });
      const stopped = await expectOk<MessageRecord>(
        t,
        '/api/aigc/chat/stop',
        { messageId: id },
        as(token),
      );
      expect(stopped.status).toBe('stopped');
      expect(stopped.content.length).toBeGreaterThan(0);
      expect(longAnswer.startsWith(stopped.content)).toBe(true);
      await fake.waitFor(() => request()?.aborted === true);
      const read = await reading;
      expect(read.events.at(-1)).toMatchObject({
        event: 'done',
        data: { status: 'stopped', usage: { estimated: true } },
      });
      expect(read.text).toBe(stopped.content);
    });

    it('regenerates the latest answer as a new version, and only answers', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ text: 'First try' }, { text: 'Second try' });
      const sent = await send(t, token, conversation.id, 'Pick a word');
      const id = sent.json.data.assistantMessage.id;
      await finalMessage(token, conversation.id, id);
      const again = await expectOk<MessageRecord>(
        t,
        '/api/aigc/chat/regenerate',
        { messageId: id },
        as(token),
      );
      expect(again).toMatchObject({ status: 'streaming', content: '', versions: [id, again.id] });
      const read = await readStream(base, token, { messageId: again.id });
      expect(read.text).toBe('Second try');
      expect((await messages(token, conversation.id)).map((m) => m.content)).toEqual([
        'Pick a word',
        'Second try',
      ]);
      const { json } = await t.post(
        '/api/aigc/chat/regenerate',
        { messageId: sent.json.data.userMessage.id },
        as(token),
      );
      expect(json).toMatchObject({ msg: '只能重新生成回答', data: { error: 'chat.notAnswer' } });
    });

    it('shows a provider error in the answer and leaves the conversation usable', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ status: 503, error: { message: 'The engine is overloaded' } });
      const failed = await send(t, token, conversation.id, 'Hello?');
      const read = await readStream(base, token, {
        messageId: failed.json.data.assistantMessage.id,
      });
      expect(read.events.at(-1)).toMatchObject({
        event: 'error',
        data: { status: 'error', msg: expect.stringMatching(/HTTP 503.*The engine is overloaded/) },
      });
      fake.script({ text: 'one two three four', failAfter: 2 });
      const broken = await send(t, token, conversation.id, 'Try again');
      const brokenMessage = await finalMessage(
        token,
        conversation.id,
        broken.json.data.assistantMessage.id,
      );
      expect(brokenMessage).toMatchObject({ status: 'error', content: 'one two ' });
      expect(brokenMessage.error).toMatch(/mid-answer|broke off|terminated/i);

      fake.script({ text: 'Fine now' });
      const ok = await send(t, token, conversation.id, 'Once more');
      const read3 = await readStream(base, token, { messageId: ok.json.data.assistantMessage.id });
      expect(read3.text).toBe('Fine now');
      expect((await messages(token, conversation.id)).map((m) => m.status)).toEqual([
        'done',
        'error',
        'done',
        'error',
        'done',
        'done',
      ]);
    });

    it('stores an answer and an error holding NUL, which PostgreSQL text cannot', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ chunks: ['Nul\u0000', '\u0000', ' inside'] });
      const sent = await send(t, token, conversation.id, 'Hello');
      const answer = await finalMessage(token, conversation.id, sent.json.data.assistantMessage.id);
      expect(answer).toMatchObject({ status: 'done', content: 'Nul inside' });

      fake.script({ status: 500, error: { message: 'broken\u0000engine' } });
      const failed = await send(t, token, conversation.id, 'Again');
      const error = await finalMessage(
        token,
        conversation.id,
        failed.json.data.assistantMessage.id,
      );
      expect(error).toMatchObject({ status: 'error' });
      expect(error.error).toMatch(/brokenengine/);
      expect(error).toMatchObject({ errorKey: 'ai.providerRefused' });
    });

    it('ends an answer the provider stops sending, with a clear message', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ text: 'slow', hang: true });
      const sent = await send(t, token, conversation.id, 'Are you there?');
      const final = await finalMessage(token, conversation.id, sent.json.data.assistantMessage.id);
      expect(final).toMatchObject({ status: 'error', content: 'slow' });
      expect(final).toMatchObject({
        error: '模型 2 秒没有继续回答，回答已截断，请重试。',
        errorKey: 'chat.answerIdle',
        errorParams: { seconds: 2 },
      });
      await fake.waitFor(() => fake.completions().at(-1)?.aborted === true);
    });

    it('refuses a second message while an answer is still being written', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ text: 'busy', hang: true });
      const asked = fake.completions().length;
      const sent = await send(t, token, conversation.id, 'First');
      // The provider holds the first answer open (so its scripted reply is taken, not left for
      // the next test).
      await fake.waitFor(() => fake.completions().length > asked);
      const second = await send(t, token, conversation.id, 'Second');
      expect(second.json).toMatchObject({
        code: Code.Failure,
        msg: '回答还在生成中：请等待它结束，或先停止它',
        data: { error: 'chat.busy' },
      });
      await expectOk(
        t,
        '/api/aigc/chat/stop',
        { messageId: sent.json.data.assistantMessage.id },
        as(token),
      );
    });

    it('pages long histories newest first by cursor', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      for (let i = 0; i < 3; i += 1) {
        fake.script({ text: `answer ${i}` });
        const sent = await send(t, token, conversation.id, `question ${i}`);
        await finalMessage(token, conversation.id, sent.json.data.assistantMessage.id);
      }
      const newest = await expectOk<MessageListResponse>(
        t,
        '/api/aigc/message/list',
        { conversationId: conversation.id, limit: 4 },
        as(token),
      );
      expect(newest.records.map((m) => m.content)).toEqual([
        'question 1',
        'answer 1',
        'question 2',
        'answer 2',
      ]);
      expect(newest.hasMore).toBe(true);
      const older = await expectOk<MessageListResponse>(
        t,
        '/api/aigc/message/list',
        { conversationId: conversation.id, limit: 4, before: newest.records[0]?.id },
        as(token),
      );
      expect(older).toEqual({ records: expect.any(Array), hasMore: false });
      expect(older.records.map((m) => m.content)).toEqual(['question 0', 'answer 0']);
    });

    it("sends images from the member's own library to vision models only", async () => {
      await useUploadConfig(t);
      const login = await t.loginMember();
      const token = login.token;
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .png()
        .toBuffer();
      const files = new FileClient(t, { area: 'member', token }, 'image');
      const image = await files.uploadAndSave({ name: 'red.png', data: png });
      const vision = await expectOk<ModelRecord>(
        t,
        '/admin/api/aigc/model/save',
        { id: 0, providerId: seeded.provider.id, name: 'fake-vision', title: 'Seer', vision: true },
        admin(),
      );
      const room = await expectOk<AdminRoomRecord>(
        t,
        '/admin/api/aigc/chat_room/save',
        { id: 0, title: 'Vision room', modelId: vision.id },
        admin(),
      );
      const conversation = await newConversation(t, token, room.id);
      fake.script({ text: 'A red square' });
      const count = fake.completions().length;
      const sent = await send(t, token, conversation.id, 'What is this?', [image.path]);
      expect(sent.json.code, sent.json.msg).toBe(0);
      expect(sent.json.data.userMessage.images).toEqual([image.path]);
      await finalMessage(token, conversation.id, sent.json.data.assistantMessage.id);
      const body = fake.completions()[count]?.body as ChatBody;
      expect(body.messages?.at(-1)).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          {
            type: 'image_url',
            image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
          },
        ],
      });

      const stranger = await member();
      const theirs = await newConversation(t, stranger, room.id);
      const stolen = await send(t, stranger, theirs.id, 'And this?', [image.path]);
      expect(stolen.json).toMatchObject({
        msg: '请从你自己的图片库中选择图片',
        data: { error: 'chat.imageNotOwned', field: 'images' },
      });
      const plain = await newConversation(t, token, seeded.room.id);
      const blind = await send(t, token, plain.id, 'See?', [image.path]);
      expect(blind.json).toMatchObject({ data: { error: 'chat.noVision' } });
      await expectOk(t, '/admin/api/aigc/chat_room/delete', { id: room.id }, admin());
      await expectOk(t, '/admin/api/aigc/model/delete', { id: vision.id }, admin());
    });

    it("keeps members out of each other's conversations", async () => {
      const owner = await member();
      const stranger = await member();
      const conversation = await newConversation(t, owner, seeded.room.id);
      fake.script({ text: 'private' });
      const sent = await send(t, owner, conversation.id, 'secret question');
      const id = sent.json.data.assistantMessage.id;
      for (const [url, body] of [
        ['/api/aigc/message/list', { conversationId: conversation.id }],
        ['/api/aigc/chat/send', { conversationId: conversation.id, content: 'hi' }],
        ['/api/aigc/chat/stop', { messageId: id }],
        ['/api/aigc/chat/regenerate', { messageId: id }],
        ['/api/aigc/conversation/rename', { id: conversation.id, title: 'mine' }],
        ['/api/aigc/conversation/delete', { id: conversation.id }],
      ] as const) {
        const { json } = await t.post(url, body, as(stranger));
        expect(json.code, url).toBe(Code.Failure);
        expect((json.data as { error: string }).error, url).toMatch(/NotFound$/);
      }
      const refused = await readStream(base, stranger, { messageId: id });
      expect(refused.envelope).toMatchObject({ code: Code.Failure, msg: '消息不存在' });
      const anonymous = await fetch(`${base}/api/aigc/chat/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messageId: id }),
      });
      expect(await anonymous.json()).toMatchObject({
        code: Code.NotLoggedIn,
        data: { error: 'http.notLoggedIn' },
      });
    });

    it('renames and deletes conversations, stopping a live answer first', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      const renamed = await expectOk<ConversationRecord>(
        t,
        '/api/aigc/conversation/rename',
        { id: conversation.id, title: 'Trip plans' },
        as(token),
      );
      expect(renamed.title).toBe('Trip plans');
      fake.script({ text: 'never ending', hang: true });
      const count = fake.completions().length;
      await send(t, token, conversation.id, 'plan it');
      await fake.waitFor(() => (fake.completions()[count]?.chunksSent ?? 0) >= 1);
      await expectOk(t, '/api/aigc/conversation/delete', { id: conversation.id }, as(token));
      await fake.waitFor(() => fake.completions()[count]?.aborted === true);
      const { records } = await expectOk<RecordsResponse<ConversationRecord>>(
        t,
        '/api/aigc/conversation/list',
        { roomId: seeded.room.id },
        as(token),
      );
      expect(records).toEqual([]);
    });
  });

  describe('quotas and usage', () => {
    withMovableSystemClock();
    afterAll(async () => {
      await expectOk(t, '/admin/api/aigc/usage/quota_save', unlimited, admin());
    });

    it('refuses with a clear message once the daily message quota is used', async () => {
      await expectOk(
        t,
        '/admin/api/aigc/usage/quota_save',
        { messagesPerDay: 2, tokensPerDay: 0, messagesPerMinute: 0 },
        admin(),
      );
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      for (let i = 0; i < 2; i += 1) {
        const sent = await send(t, token, conversation.id, `q${i}`);
        expect(sent.json.code, sent.json.msg).toBe(0);
        await finalMessage(token, conversation.id, sent.json.data.assistantMessage.id);
      }
      const refused = await send(t, token, conversation.id, 'one more');
      expect(refused.json).toEqual({
        code: Code.Failure,
        msg: '今天的 2 次提问已用完，UTC 0 点重置。',
        data: { error: 'chat.quotaMessages', params: { limit: 2 } },
      });
      const english = await postIn(
        t,
        'en',
        '/api/aigc/chat/send',
        { conversationId: conversation.id, content: 'one more' },
        as(token),
      );
      expect(english).toMatchObject({
        msg: "You have reached today's limit of 2 messages. It resets at 00:00 UTC.",
        data: { error: 'chat.quotaMessages', params: { limit: 2 } },
      });
      const regenerate = await t.post(
        '/api/aigc/chat/regenerate',
        { messageId: (await messages(token, conversation.id)).at(-1)?.id },
        as(token),
      );
      expect(regenerate.json.data).toMatchObject({ error: 'chat.quotaMessages' });
      const other = await member();
      const fresh = await newConversation(t, other, seeded.room.id);
      expect((await send(t, other, fresh.id, 'hi')).json.code).toBe(0);
    });

    it('refuses once the daily token quota is used, and rate-limits bursts', async () => {
      await expectOk(
        t,
        '/admin/api/aigc/usage/quota_save',
        { messagesPerDay: 0, tokensPerDay: 300, messagesPerMinute: 0 },
        admin(),
      );
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ text: 'x', usage: { prompt_tokens: 200, completion_tokens: 100 } });
      const sent = await send(t, token, conversation.id, 'expensive');
      await finalMessage(token, conversation.id, sent.json.data.assistantMessage.id);
      const refused = await send(t, token, conversation.id, 'more');
      expect(refused.json).toMatchObject({
        msg: '你今日的额度 300 tokens 已用完，UTC 0 点重置。',
        data: { error: 'chat.budgetUsed' },
      });
      const english = await postIn(
        t,
        'en',
        '/api/aigc/chat/send',
        { conversationId: conversation.id, content: 'more' },
        as(token),
      );
      expect(english).toMatchObject({
        msg: "You have used today's limit of 300 tokens. The limit resets at 00:00 UTC.",
        data: {
          error: 'chat.budgetUsed',
          params: {
            whose: { key: 'chat.budgetYouHave' },
            amount: { key: 'chat.budgetLimitTokens' },
          },
        },
      });

      await expectOk(
        t,
        '/admin/api/aigc/usage/quota_save',
        { messagesPerDay: 0, tokensPerDay: 0, messagesPerMinute: 1 },
        admin(),
      );
      const burst = await member();
      const c1 = await newConversation(t, burst, seeded.room.id);
      const c2 = await newConversation(t, burst, seeded.room.id);
      expect((await send(t, burst, c1.id, 'one')).json.code).toBe(0);
      const limited = await send(t, burst, c2.id, 'two');
      expect(limited.json).toMatchObject({
        code: Code.TooManyRequests,
        msg: expect.stringMatching(/每分钟最多 1 条/),
      });
      t.clock.advance(61_000);
      expect((await send(t, burst, c2.id, 'three')).json.code).toBe(0);
    });

    it('counts usage by day, room and member for the admin', async () => {
      const quota = await expectOk<ChatQuota>(t, '/admin/api/aigc/usage/quota', {}, admin());
      expect(quota.messagesPerMinute).toBe(1);
      const today = new Date(t.clock.now()).toISOString().slice(0, 10);
      const usage = await expectOk<UsageResponse>(
        t,
        '/admin/api/aigc/usage/summary',
        { from: today, to: today },
        admin(),
      );
      expect(usage.totals.messages).toBeGreaterThan(10);
      expect(usage.byDay.map((d) => d.day)).toContain(today);
      expect(usage.byRoom.find((r) => r.roomId === seeded.room.id)).toMatchObject({
        title: 'Test room',
      });
      expect(usage.byMember.length).toBeGreaterThan(3);
      expect(usage.byMember[0]?.username).toMatch(/^member_/);
      const { json } = await t.post(
        '/admin/api/aigc/usage/summary',
        { from: today, to: '2020-01-01' },
        admin(),
      );
      expect(json).toMatchObject({
        msg: '结束日期不能早于开始日期',
        data: { error: 'chat.toBeforeFrom', field: 'to' },
      });
    });
  });

  describe('secrets', () => {
    it('never puts the API key in an answer or a log line', async () => {
      const token = await member();
      const conversation = await newConversation(t, token, seeded.room.id);
      fake.script({ status: 500, error: { message: `upstream saw key ${TEST_API_KEY}` } });
      const sent = await send(t, token, conversation.id, 'leak it');
      const final = await finalMessage(token, conversation.id, sent.json.data.assistantMessage.id);
      expect(final.error).toContain('upstream saw key ***');
      expect(answers.length).toBeGreaterThan(20);
      expect(logs.length).toBeGreaterThan(20);
      for (const text of [...answers, ...logs]) expect(text).not.toContain(TEST_API_KEY);
      expect(logs.some((line) => line.includes('chat generation failed'))).toBe(true);
    });
  });
});

describe('test double', () => {
  it('splits replies the way models stream them', () => {
    expect(tokens('Hello big world')).toEqual(['Hello ', 'big ', 'world']);
    expect(tokens('你好 ok')).toEqual(['你', '好', ' ', 'ok']);
  });
});
