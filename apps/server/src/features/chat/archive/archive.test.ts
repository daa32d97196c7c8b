import { Code } from '@atrium/shared';
import type {
  AdminRoomRecord,
  ChatSendResponse,
  ConversationRecord,
  MessageListResponse,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import {
  chatImportMaxChars,
  type ChatExportFile,
  type ChatImportResponse,
  type ChatShareList,
  type ChatShareRecord,
  type ChatShareView,
  type ExportedConversation,
} from '@atrium/shared/contract/chat-export';
import { sql } from 'kysely';
import { exportedMessage } from './archive.testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileClient, useUploadConfig } from '../../library/library.testing';
import { testDbKinds } from '../../../testing/db';
import { startFakeOpenAi, type FakeOpenAi } from '../../../testing/fake-openai';
import { authHeaders, createTestApp, type TestApp } from '../../../testing/test-app';
import {
  eventually,
  expectOk,
  newConversation,
  postIn,
  seedRoom,
  send,
  TEST_API_KEY,
  type Seeded,
} from '../chat.testing';

describe.each(testDbKinds)('chat export, import and share links on %s', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let seeded: Seeded;

  const as = (token: string) => ({ area: 'member' as const, token });
  const admin = () => ({ area: 'admin' as const, token: seeded.adminToken });
  const member = async () => (await t.loginMember()).token;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({ db: kind });
    seeded = await seedRoom(t, fake, { title: '写作室' }, { vision: true });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
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

  /** Sends a question and waits until its answer has ended. */
  async function ask(token: string, conversationId: number, content: string, images?: string[]) {
    const { json } = await send(t, token, conversationId, content, images);
    expect(json.code, json.msg).toBe(0);
    await waitDone(token, conversationId, json.data.assistantMessage.id);
    return json.data;
  }

  async function waitDone(token: string, conversationId: number, id: number) {
    await eventually(async () => {
      const found = (await shown(token, conversationId)).find((m) => m.id === id);
      return found && found.status !== 'streaming' ? found : undefined;
    });
  }

  async function exportRaw(token: string, body: Record<string, unknown>) {
    return t.app.inject({
      method: 'POST',
      url: '/api/aigc/conversation/export',
      headers: { 'content-type': 'application/json', ...authHeaders('member', token) },
      payload: JSON.stringify(body),
    });
  }

  async function exportJson(token: string, conversationId?: number): Promise<ChatExportFile> {
    const res = await exportRaw(token, { conversationId, format: 'json' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return JSON.parse(res.body) as ChatExportFile;
  }

  const importFile = (token: string, file: string, roomId?: number) =>
    t.post<ChatImportResponse>('/api/aigc/conversation/import', { file, roomId }, as(token));
  const importIn = (lang: string, token: string, file: string, roomId?: number) =>
    postIn<ChatImportResponse>(
      t,
      lang,
      '/api/aigc/conversation/import',
      { file, roomId },
      as(token),
    );

  async function conversationCount(token: string): Promise<number> {
    return (await exportJson(token)).conversations.length;
  }

  /**
   * A conversation with two questions, the second edited (two branches), the first branch shown
   * again, and an image of the member's own library on the second question.
   */
  async function branched(token: string) {
    const png = await sharp({ create: { width: 6, height: 6, channels: 3, background: '#0a0' } })
      .png()
      .toBuffer();
    const image = await new FileClient(t, as(token), 'image').uploadAndSave({
      name: 'green.png',
      data: png,
    });
    const conversation = await newConversation(t, token, seeded.room.id);
    await expectOk(
      t,
      '/api/aigc/conversation/rename',
      { id: conversation.id, title: '周报：第一季度' },
      as(token),
    );
    await ask(token, conversation.id, 'First question');
    const second = await ask(token, conversation.id, 'Second question', [image.path]);
    const { json: edited } = await t.post<ChatSendResponse>(
      '/api/aigc/chat/edit',
      { messageId: second.userMessage.id, content: 'Second question, asked again' },
      as(token),
    );
    expect(edited.code, edited.msg).toBe(0);
    await waitDone(token, conversation.id, edited.data.assistantMessage.id);
    await expectOk(
      t,
      '/api/aigc/conversation/branch',
      { messageId: second.userMessage.id },
      as(token),
    );
    return { conversation, image: image.path, second, edited: edited.data };
  }

  /** The file's content without the ids this database gave: what must survive a round trip. */
  function content(file: ChatExportFile) {
    return file.conversations.map((c: ExportedConversation) => {
      const index = new Map(c.messages.map((m, i) => [m.id, i]));
      return {
        ...c,
        id: 0,
        leafId: c.leafId === null ? null : index.get(c.leafId),
        messages: c.messages.map((m) => ({
          ...m,
          id: index.get(m.id),
          parentId: m.parentId === null ? null : index.get(m.parentId),
        })),
      };
    });
  }

  it('exports one conversation as JSON with every branch, named after its title', async () => {
    const token = await member();
    const { conversation, image, second, edited } = await branched(token);
    const res = await exportRaw(token, { conversationId: conversation.id, format: 'json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_______.json"; filename*=UTF-8''${encodeURIComponent('周报：第一季度')}.json`,
    );
    const file = JSON.parse(res.body) as ChatExportFile;
    expect(file).toMatchObject({ format: 'atrium-chat-export', version: 1 });
    expect(file.conversations).toHaveLength(1);
    const [c] = file.conversations;
    expect(c).toMatchObject({
      id: conversation.id,
      title: '周报：第一季度',
      room: { id: seeded.room.id, title: '写作室' },
      leafId: second.assistantMessage.id,
    });
    expect(c?.messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'First question', 'done'],
      ['assistant', 'You said: First question', 'done'],
      ['user', 'Second question', 'done'],
      ['assistant', 'You said: Second question', 'done'],
      ['user', 'Second question, asked again', 'done'],
      ['assistant', 'You said: Second question, asked again', 'done'],
    ]);
    const byContent = new Map(c?.messages.map((m) => [m.content, m]));
    expect(byContent.get('Second question')?.images).toEqual([image]);
    expect(byContent.get('Second question')?.parentId).toBe(c?.messages[1]?.id);
    expect(byContent.get('Second question, asked again')?.parentId).toBe(c?.messages[1]?.id);
    expect(byContent.get('You said: Second question, asked again')?.id).toBe(
      edited.assistantMessage.id,
    );
    const answer = byContent.get('You said: First question');
    expect(answer?.completionTokens).toBeGreaterThan(0);
    expect(answer?.createdAt).toEqual(expect.any(Number));
  });

  it('exports the shown branch as readable Markdown, in the chosen language and time zone', async () => {
    const token = await member();
    const { conversation, image } = await branched(token);
    const res = await exportRaw(token, {
      conversationId: conversation.id,
      format: 'markdown',
      lang: 'en',
      utcOffset: 480,
    });
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('周报：第一季度')}.md`,
    );
    const md = res.body;
    expect(md).toMatch(
      /^# 周报：第一季度\n\n- Room: 写作室\n- Created: \d{4}-\d\d-\d\d \d\d:\d\d \(UTC\+08:00\)/,
    );
    expect(md).toContain('- Messages: 4 (the shown branch)');
    expect(md).toMatch(/### You · \d{4}-\d\d-\d\d \d\d:\d\d \(UTC\+08:00\)\n\nFirst question/);
    expect(md).toContain('### Assistant · ');
    expect(md).toContain('You said: Second question\n');
    expect(md).toContain('> Version 1 of 2 of this question');
    expect(md).toContain(`![image](<http://localhost:80${image}>)`);
    // The other branch is noted, not written out.
    expect(md).not.toContain('asked again');

    const zh = (await exportRaw(token, { conversationId: conversation.id, format: 'markdown' }))
      .body;
    expect(zh).toContain('- 聊天室: 写作室');
    expect(zh).toMatch(/### 我 · .+\(UTC\+00:00\)/);
    expect(zh).toContain('### 助手 · ');
  });

  it("exports all of a member's conversations, page after page, and none of anyone else's", async () => {
    const token = await member();
    const other = await member();
    await newConversation(t, other, seeded.room.id);
    const made: ConversationRecord[] = [];
    for (let i = 0; i < 53; i++) made.push(await newConversation(t, token, seeded.room.id));
    await ask(token, made[0]?.id ?? 0, 'Hello there');

    const res = await exportRaw(token, { format: 'json' });
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="atrium-__-\d{4}-\d\d-\d\d\.json"; filename\*=UTF-8''atrium-%E5%AF%B9%E8%AF%9D-/,
    );
    const file = JSON.parse(res.body) as ChatExportFile;
    expect(file.conversations.map((c) => c.id)).toEqual(made.map((c) => c.id));
    expect(file.conversations[0]?.messages).toHaveLength(2);

    const md = (await exportRaw(token, { format: 'markdown', lang: 'en' })).body;
    expect(md.startsWith('# My conversations\n\n- Exported: ')).toBe(true);
    // The first took its title from its first question.
    expect(md.match(/^## New chat$/gm)).toHaveLength(52);
    expect(md).toContain('## Hello there\n');

    const empty = await member();
    expect((await exportJson(empty)).conversations).toEqual([]);
    const refused = await exportRaw(other, { conversationId: made[0]?.id, format: 'json' });
    expect(refused.json()).toEqual({
      code: -1,
      msg: '对话不存在',
      data: { error: 'chat.conversationNotFound', params: {} },
    });
    const anonymous = await t.post('/api/aigc/conversation/export', { format: 'json' });
    expect(anonymous.json.code).toBe(Code.NotLoggedIn);
  });

  it('imports its JSON back: export, import, export give the same content', async () => {
    const token = await member();
    const { conversation } = await branched(token);
    const first = await exportJson(token, conversation.id);
    const { json } = await importFile(token, JSON.stringify(first));
    expect(json.code, json.msg).toBe(0);
    expect(json.msg).toBe('已导入 1 个对话');
    expect(json.data).toMatchObject({ messages: 6, droppedImages: [] });
    const [copy] = json.data.conversations;
    expect(copy).toMatchObject({ roomId: seeded.room.id, title: '周报：第一季度' });
    expect(copy?.id).not.toBe(conversation.id);

    const again = await exportJson(token, copy?.id);
    expect(content(again)).toEqual(content(first));
    // The shown branch is the same one, and the member can switch to the other.
    const before = (await shown(token, conversation.id)).map((m) => m.content);
    const after = await shown(token, copy?.id ?? 0);
    expect(after.map((m) => m.content)).toEqual(before);
    const versions = after.find((m) => m.content === 'Second question')?.versions;
    expect(versions).toHaveLength(2);
    await expectOk(t, '/api/aigc/conversation/branch', { messageId: versions?.[1] }, as(token));
    expect((await shown(token, copy?.id ?? 0)).at(-1)?.content).toBe(
      'You said: Second question, asked again',
    );
    // And it takes new messages.
    await ask(token, copy?.id ?? 0, 'Third question');
  });

  it('imports answers that were still streaming as ended, and all conversations of a file', async () => {
    const token = await member();
    const file: ChatExportFile = {
      format: 'atrium-chat-export',
      version: 1,
      exportedAt: 1,
      conversations: [1, 2].map((n) => ({
        id: n,
        title: `Old chat ${n}`,
        room: { id: seeded.room.id, title: 'x' },
        leafId: null,
        createdAt: 1000,
        updatedAt: 2000,
        messages: [
          exportedMessage({ id: 10, parentId: null, content: 'q' }),
          exportedMessage({
            id: 11,
            parentId: 10,
            role: 'assistant',
            content: 'half an ans',
            status: 'streaming',
            promptTokens: 3,
            completionTokens: 4,
            tokensEstimated: true,
            updatedAt: 1500,
          }),
        ],
      })),
    };
    const { json } = await importFile(token, JSON.stringify(file));
    expect(json.code, json.msg).toBe(0);
    expect(json.data.conversations.map((c) => c.title)).toEqual(['Old chat 1', 'Old chat 2']);
    const messages = await shown(token, json.data.conversations[0]?.id ?? 0);
    expect(messages.map((m) => [m.content, m.status, m.error])).toEqual([
      ['q', 'done', ''],
      ['half an ans', 'interrupted', '导出时仍在生成'],
    ]);
    expect(messages[1]).toMatchObject({ errorKey: 'chat.answerExportedStreaming' });
    expect(messages[1]).toMatchObject({
      promptTokens: 3,
      completionTokens: 4,
      tokensEstimated: true,
    });
  });

  it('undoes an import that failed midway: on SQLite the transactions its writer thread had committed are taken back, and the thread is stopped, not ended from outside', async () => {
    const token = await member();
    const before = await conversationCount(token);
    const message = (id: number, content: string) =>
      exportedMessage({ id, parentId: id > 1 ? id - 1 : null, content });
    // The thread writes 100 rows a transaction: the first conversation's first 99 messages
    // commit, then the second conversation's message fails its transaction.
    const file: ChatExportFile = {
      format: 'atrium-chat-export',
      version: 1,
      exportedAt: 1,
      conversations: [
        Array.from({ length: 150 }, (_, i) => message(i + 1, `line ${i + 1}`)),
        [message(1, 'boom')],
      ].map((messages, n) => ({
        id: n + 1,
        title: `Half-imported ${n + 1}`,
        room: { id: seeded.room.id, title: 'x' },
        leafId: null,
        createdAt: 1000,
        updatedAt: 2000,
        messages,
      })),
    };
    if (kind === 'sqlite') {
      await sql`create trigger boom before insert on chat_messages when new.content = 'boom'
          begin select raise(abort, 'boom'); end`.execute(t.db);
    } else {
      await sql`create function boom() returns trigger language plpgsql as $$
          begin if new.content = 'boom' then raise exception 'boom'; end if; return new; end $$`.execute(
        t.db,
      );
      await sql`create trigger boom before insert on chat_messages
          for each row execute function boom()`.execute(t.db);
    }
    try {
      const { json } = await importFile(token, JSON.stringify(file));
      expect(json.code).not.toBe(0);
    } finally {
      const on = sql.raw(kind === 'sqlite' ? '' : 'on chat_messages');
      await sql`drop trigger boom ${on}`.execute(t.db);
      if (kind !== 'sqlite') await sql`drop function boom()`.execute(t.db);
    }
    expect(await conversationCount(token)).toBe(before);
    // The member's import is over: the next one runs.
    const { json } = await importFile(token, JSON.stringify({ ...file, conversations: [] }));
    expect(json.code, json.msg).not.toBe(Code.TooManyRequests);
  });

  it('refuses bad files with a clear message and stores nothing', async () => {
    const token = await member();
    const { conversation } = await branched(token);
    const good = await exportJson(token, conversation.id);
    const count = await conversationCount(token);
    const refusals: [unknown, string][] = [
      ['not json', 'The file is not a JSON file'],
      [{ ...good, format: 'other' }, 'The file is not an Atrium chat export'],
      [
        { ...good, version: 2 },
        'Export version 2 cannot be imported here: this Atrium reads version 1',
      ],
      [{ ...good, conversations: [] }, 'conversations: the file holds no conversation'],
    ];
    const [c] = good.conversations;
    if (!c) throw new Error('no conversation');
    const broken = structuredClone(good);
    const firstMessage = broken.conversations[0]?.messages[0];
    if (firstMessage) firstMessage.parentId = 999_999;
    refusals.push([
      broken,
      'conversations.0.messages.0.parentId: messages.0.parentId names a message which is not listed before it',
    ]);
    const twice = structuredClone(good);
    const last = twice.conversations[0]?.messages.at(-1);
    if (last) last.id = c.messages[0]?.id ?? 1;
    refusals.push([twice, 'conversations.0.messages.5.id: ID is used twice']);
    refusals.push([
      { ...good, conversations: [{ ...c, leafId: 999_999 }] },
      'conversations.0.leafId: leafId names a message which the conversation does not hold',
    ]);
    refusals.push([
      { ...good, conversations: [c, { ...c, messages: [{ ...c.messages[0], role: 'system' }] }] },
      'conversations.1.messages.0.role: ',
    ]);
    refusals.push([
      { ...good, conversations: [{ ...c, room: { id: 999_999, title: 'Gone room' } }] },
      'Room "Gone room" (#999999) is closed or does not exist on this site: choose a room to import into',
    ]);
    for (const [file, msg] of refusals) {
      const text = typeof file === 'string' ? file : JSON.stringify(file);
      const json = await importIn('en', token, text);
      expect(json.code, msg).toBe(Code.Failure);
      expect(json.msg.startsWith(msg), `${json.msg} / ${msg}`).toBe(true);
    }
    const tooBig = await importIn('en', token, ' '.repeat(chatImportMaxChars + 1));
    expect(tooBig).toMatchObject({
      code: -1,
      msg: 'The file is too big: at most 10 MB',
      data: { error: 'chat.importTooBig', field: 'file' },
    });
    const notJson = await importFile(token, 'not json');
    expect(notJson.json.msg).toMatch(/^文件不是 JSON 文件（/);
    expect(notJson.json.data).toMatchObject({ error: 'chat.importNotJson', field: 'file' });
    expect(await conversationCount(token)).toBe(count);

    const closed = await importIn('en', token, JSON.stringify(good), 999_999);
    expect(closed.msg).toBe('This room is closed or does not exist');
    expect(await conversationCount(token)).toBe(count);
  });

  it("imports into a chosen room, and leaves out images from someone else's library", async () => {
    const owner = await member();
    const { conversation, image } = await branched(owner);
    const file = await exportJson(owner, conversation.id);
    const room = await expectOk<AdminRoomRecord>(
      t,
      '/admin/api/aigc/chat_room/save',
      { id: 0, title: 'Other room', modelId: seeded.model.id },
      admin(),
    );
    const stranger = await member();
    const { json } = await importFile(stranger, JSON.stringify(file), room.id);
    expect(json.code, json.msg).toBe(0);
    expect(json.data.droppedImages).toEqual([image]);
    const copy = json.data.conversations[0];
    expect(copy?.roomId).toBe(room.id);
    const theirs = await exportJson(stranger, copy?.id);
    expect(theirs.conversations[0]?.room).toEqual({ id: room.id, title: 'Other room' });
    expect(theirs.conversations[0]?.messages.flatMap((m) => m.images)).toEqual([]);
    // The owner's image is still theirs alone: the stranger cannot send it either.
    const sent = await send(t, stranger, copy?.id ?? 0, 'Look', [image]);
    expect(sent.json.data).toMatchObject({ error: 'chat.imageNotOwned', field: 'images' });
    await expectOk(t, '/admin/api/aigc/chat_room/delete', { id: room.id }, admin());
  });

  describe('share links', () => {
    const view = (token: string | undefined, link: string) =>
      t.post<ChatShareView>('/api/aigc/share/view', { token: link }, token ? as(token) : undefined);
    const setPublic = (publicLinks: boolean) =>
      expectOk(t, '/admin/api/aigc/share/setting_save', { publicLinks }, admin());

    it('shows a snapshot of the shown branch to signed-in members, until revoked', async () => {
      const owner = await member();
      const { conversation } = await branched(owner);
      const share = await expectOk<ChatShareRecord>(
        t,
        '/api/aigc/share/create',
        { conversationId: conversation.id },
        as(owner),
      );
      expect(share).toMatchObject({
        conversationId: conversation.id,
        title: '周报：第一季度',
        roomTitle: '写作室',
        messages: 4,
        public: false,
      });
      expect(share.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      // Later messages are not part of it.
      await ask(owner, conversation.id, 'A later question');
      const reader = await member();
      const seen = await view(reader, share.token);
      expect(seen.json.code, seen.json.msg).toBe(0);
      expect(seen.res.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(seen.json.data).toMatchObject({
        title: '周报：第一季度',
        roomId: seeded.room.id,
        roomTitle: '写作室',
        sharedAt: share.createdAt,
      });
      expect(seen.json.data.messages.map((m) => [m.role, m.content])).toEqual([
        ['user', 'First question'],
        ['assistant', 'You said: First question'],
        ['user', 'Second question'],
        ['assistant', 'You said: Second question'],
      ]);
      expect(seen.json.data.messages[2]?.images).toHaveLength(1);

      // Anonymous visitors are asked to sign in.
      expect((await view(undefined, share.token)).json.code).toBe(Code.NotLoggedIn);

      const list = await expectOk<ChatShareList>(t, '/api/aigc/share/list', {}, as(owner));
      expect(list).toEqual({ records: [share], publicLinks: false });
      expect(
        (await expectOk<ChatShareList>(t, '/api/aigc/share/list', {}, as(reader))).records,
      ).toEqual([]);

      // Someone else cannot revoke it; it keeps working.
      const refused = await t.post('/api/aigc/share/revoke', { id: share.id }, as(reader));
      expect(refused.json).toEqual({
        code: -1,
        msg: '这个分享链接不存在或已被撤销',
        data: { error: 'chat.shareNotFound', params: {} },
      });
      expect((await view(reader, share.token)).json.code).toBe(0);

      await expectOk(t, '/api/aigc/share/revoke', { id: share.id }, as(owner));
      const revoked = await view(reader, share.token);
      const unknown = await view(reader, 'A'.repeat(43));
      expect(revoked.json).toEqual({
        code: -1,
        msg: '这个分享链接不存在或已被撤销',
        data: { error: 'chat.shareNotFound', params: {} },
      });
      expect(unknown.json).toEqual(revoked.json);
      expect((await view(reader, 'short')).json).toEqual(revoked.json);
    });

    it('lets anonymous visitors open public links only while the site allows them', async () => {
      const owner = await member();
      const conversation = await newConversation(t, owner, seeded.room.id);
      await ask(owner, conversation.id, 'Public question');
      const create = (isPublic: boolean) =>
        t.post<ChatShareRecord>(
          '/api/aigc/share/create',
          { conversationId: conversation.id, public: isPublic },
          as(owner),
        );
      expect((await create(true)).json).toMatchObject({
        msg: '本站已关闭公开链接',
        data: { error: 'chat.publicLinksOff', field: 'public' },
      });
      await setPublic(true);
      try {
        const open = (await create(true)).json.data;
        const closed = (await create(false)).json.data;
        expect(open.public).toBe(true);
        const anonymous = await view(undefined, open.token);
        expect(anonymous.json.code, anonymous.json.msg).toBe(0);
        expect(anonymous.json.data.messages.map((m) => m.content)).toEqual([
          'Public question',
          'You said: Public question',
        ]);
        expect((await view(undefined, closed.token)).json.code).toBe(Code.NotLoggedIn);
        expect((await view(undefined, 'B'.repeat(43))).json.msg).toBe(
          '这个分享链接不存在或已被撤销',
        );
        expect(
          (await expectOk<ChatShareList>(t, '/api/aigc/share/list', {}, as(owner))).publicLinks,
        ).toBe(true);

        await setPublic(false);
        expect((await view(undefined, open.token)).json.code).toBe(Code.NotLoggedIn);
        expect((await view(await member(), open.token)).json.code).toBe(0);
      } finally {
        await setPublic(false);
      }
    });

    it('revokes the links of a deleted conversation', async () => {
      const owner = await member();
      const conversation = await newConversation(t, owner, seeded.room.id);
      await ask(owner, conversation.id, 'Soon gone');
      const share = await expectOk<ChatShareRecord>(
        t,
        '/api/aigc/share/create',
        { conversationId: conversation.id },
        as(owner),
      );
      await expectOk(t, '/api/aigc/conversation/delete', { id: conversation.id }, as(owner));
      expect((await view(owner, share.token)).json.msg).toBe('这个分享链接不存在或已被撤销');
      expect(
        (await expectOk<ChatShareList>(t, '/api/aigc/share/list', {}, as(owner))).records,
      ).toEqual([]);
      const stranger = await member();
      const other = await t.post(
        '/api/aigc/share/create',
        { conversationId: (await newConversation(t, owner, seeded.room.id)).id },
        as(stranger),
      );
      expect(other.json.msg).toBe('对话不存在');
    });

    it("hides a disabled member's links from everyone until the member is enabled again", async () => {
      const { token: owner, user } = await t.loginMember();
      const conversation = await newConversation(t, owner, seeded.room.id);
      await ask(owner, conversation.id, 'Shared before the account was disabled');
      await setPublic(true);
      try {
        const create = async (isPublic: boolean) =>
          expectOk<ChatShareRecord>(
            t,
            '/api/aigc/share/create',
            { conversationId: conversation.id, public: isPublic },
            as(owner),
          );
        const open = await create(true);
        const closed = await create(false);
        const reader = await member();
        const seenBy = async () => [
          (await view(undefined, open.token)).json,
          (await view(reader, open.token)).json,
          (await view(reader, closed.token)).json,
        ];
        expect((await seenBy()).map((json) => json.code)).toEqual([0, 0, 0]);

        await expectOk(t, '/admin/api/members/disable', { id: user.id }, admin());
        const gone = {
          code: -1,
          msg: '这个分享链接不存在或已被撤销',
          data: { error: 'chat.shareNotFound', params: {} },
        };
        expect(await seenBy()).toEqual([gone, gone, gone]);

        await expectOk(t, '/admin/api/members/enable', { id: user.id }, admin());
        const back = await seenBy();
        expect(back.map((json) => json.code)).toEqual([0, 0, 0]);
        expect(back[0]?.data).toMatchObject({ title: open.title, messages: [{}, {}] });
      } finally {
        await setPublic(false);
      }
    });

    it('keeps the public-links setting to admins with the site-settings rule', async () => {
      expect(await expectOk(t, '/admin/api/aigc/share/setting', {}, admin())).toEqual({
        publicLinks: false,
      });
      const { token } = await t.loginAdmin({ username: `usage_${kind}`, rules: ['aigc/usage'] });
      const refused = await t.post(
        '/admin/api/aigc/share/setting_save',
        { publicLinks: true },
        { area: 'admin', token },
      );
      expect(refused.json.code).toBe(Code.NoPermission);
      expect(await expectOk(t, '/admin/api/aigc/share/setting', {}, admin())).toEqual({
        publicLinks: false,
      });
    });
  });
});
