import type { MessageListResponse } from '@atrium/shared/contract/chat';
import type { ChatSearchResponse } from '@atrium/shared/contract/chat-search';
import {
  chatSearchResponse,
  chatRevealResponse,
} from '@atrium/shared/contract/chat-search.answers';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../testing/fake-openai';
import { testDbKinds } from '../../../testing/db';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { chatSearchIndexes } from '../../../db/migrations/2026_11_30_2000_chat_search';
import { ChatSearchRepository, searchTerms } from './chat-search.repository';
import { excerptWithRanges } from '../excerpt';
import { chatDb } from '../chat.tables';
import {
  eventually,
  expectOk,
  newConversation,
  seedRoom,
  send,
  TEST_API_KEY,
  type Seeded,
  removeQuota,
} from '../chat.testing';

describe('excerpts', () => {
  it('cuts around the first match and gives the ranges of every word in the cut', () => {
    const text = `${'x'.repeat(100)} the Quick brown fox and the quick cat ${'y'.repeat(100)}`;
    const { excerpt, ranges } = excerptWithRanges(text, ['quick']);
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(ranges.map(([a, b]) => excerpt.slice(a, b))).toEqual(['Quick', 'quick']);
    const zh = excerptWithRanges('今天我们讨论**数据库**索引', ['数据库', '索引']);
    expect(zh.excerpt).toBe('今天我们讨论数据库索引');
    expect(zh.ranges).toEqual([[6, 11]]);
    // Words only spaces apart are one mark.
    const two = excerptWithRanges('A brand new ending', ['new', 'brand']);
    expect(two.ranges.map(([a, b]) => two.excerpt.slice(a, b))).toEqual(['brand new']);
  });
});

describe.each(testDbKinds)('conversation search on %s', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let seeded: Seeded;
  let otherRoom: number;
  const as = (token: string) => ({ area: 'member' as const, token });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({ db: kind });
    seeded = await seedRoom(t, fake);
    otherRoom = (
      await expectOk<{ id: number }>(
        t,
        '/admin/api/aigc/chat_room/save',
        { id: 0, title: 'Second room', modelId: seeded.model.id },
        { area: 'admin', token: seeded.adminToken },
      )
    ).id;
    await removeQuota(t, seeded);
  });

  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  async function search(token: string, body: Record<string, unknown>) {
    const { json } = await t.post<ChatSearchResponse>(
      '/api/aigc/conversation/search_all',
      body,
      as(token),
    );
    if (json.code !== 0) throw new Error(json.msg);
    return chatSearchResponse.parse(json.data);
  }
  const found = async (token: string, keywords: string) =>
    (await search(token, { keywords })).records.map((r) => r.messageId);

  /** Sends a question and waits for its answer to end. */
  async function ask(token: string, conversationId: number, content: string) {
    const { json } = await send(t, token, conversationId, content);
    if (json.code !== 0) throw new Error(json.msg);
    const sent = json.data;
    await eventually(async () => {
      const list = await expectOk<MessageListResponse>(
        t,
        '/api/aigc/message/list',
        { conversationId },
        as(token),
      );
      const answer = list.records.find((m) => m.id === sent.assistantMessage.id);
      return answer && answer.status !== 'streaming' ? answer : undefined;
    });
    return sent;
  }

  it('finds questions and finished answers across rooms, titles too, with ranges; never another member’s', async () => {
    const { token } = await t.loginMember();
    const a = await newConversation(t, token, seeded.room.id);
    const b = await newConversation(t, token, otherRoom);
    fake.setDefault(() => ({ text: 'An answer about Zeppelin airships and 飞艇的历史.' }));
    const first = await ask(token, a.id, 'Tell me about zeppelins please');
    const second = await ask(token, b.id, '请介绍一下飞艇的历史');

    const hits = await search(token, { keywords: 'ZEPPELIN' });
    expect(hits.records.map((r) => r.messageId)).toEqual([
      second.assistantMessage.id,
      first.assistantMessage.id,
      first.userMessage.id,
    ]);
    const [hit] = hits.records;
    expect(hit?.roomTitle).toBe('Second room');
    expect(hit?.conversation.id).toBe(b.id);
    expect(hit?.ranges.map(([s, e]) => hit.excerpt.slice(s, e))).toEqual(['Zeppelin']);
    // The title (from the first question) is found too, with its ranges.
    expect(hits.titles.map((h) => h.conversation.id)).toEqual([a.id]);
    expect(hits.titles[0]?.ranges).toEqual([[14, 22]]);

    // Chinese, 1-2 characters (checked row by row), several words, one room.
    expect(await found(token, '飞艇的历史')).toEqual([
      second.assistantMessage.id,
      second.userMessage.id,
      first.assistantMessage.id,
    ]);
    expect(await found(token, '飞艇')).toHaveLength(3);
    expect(await found(token, '史')).toHaveLength(3);
    expect(await found(token, 'me zeppelins')).toEqual([first.userMessage.id]);
    expect(
      (await search(token, { keywords: 'zeppelin', roomId: seeded.room.id })).records.map(
        (r) => r.conversation.id,
      ),
    ).toEqual([a.id, a.id]);

    // Another member finds nothing of it.
    const other = await t.loginMember();
    expect(await found(other.token, 'zeppelin')).toEqual([]);
    expect((await search(other.token, { keywords: 'zeppelin' })).titles).toEqual([]);
    expect(await found(other.token, '飞')).toEqual([]);
  });

  it('pages newest first by cursor', async () => {
    const { token } = await t.loginMember();
    const c = await newConversation(t, token, seeded.room.id);
    fake.setDefault(() => ({ text: 'ok' }));
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push((await ask(token, c.id, `pager word ${i}`)).userMessage.id);
    const page1 = await search(token, { keywords: 'pager', limit: 2 });
    expect(page1.records.map((r) => r.messageId)).toEqual([ids[4], ids[3]]);
    const page2 = await search(token, { keywords: 'pager', limit: 2, before: page1.next });
    expect(page2.records.map((r) => r.messageId)).toEqual([ids[2], ids[1]]);
    expect(page2.titles).toEqual([]);
    const page3 = await search(token, { keywords: 'pager', limit: 2, before: page2.next });
    expect(page3.records.map((r) => r.messageId)).toEqual([ids[0]]);
    expect(page3.next).toBeNull();
  });

  it('keeps the index right through streaming, edits, regeneration, branches and deletion', async () => {
    const { token } = await t.loginMember();
    const c = await newConversation(t, token, seeded.room.id);
    fake.setDefault(() => ({ text: 'first answer mentions walrus' }));
    const sent = await ask(token, c.id, 'tell me about marine mammals');
    expect(await found(token, 'walrus')).toEqual([sent.assistantMessage.id]);

    // Regenerated: a new version enters when it ends; the earlier version stays, and is found.
    fake.setDefault(() => ({ text: 'second answer mentions narwhal' }));
    const regenerated = await expectOk<{ id: number }>(
      t,
      '/api/aigc/chat/regenerate',
      { messageId: sent.assistantMessage.id },
      as(token),
    );
    await eventually(async () =>
      (await found(token, 'narwhal')).includes(regenerated.id) ? true : undefined,
    );
    expect(await found(token, 'walrus')).toEqual([sent.assistantMessage.id]);

    // While an answer streams, what it has written so far is not searchable; once ended it is.
    // (Written by this live instance, so that no sweep ends it as abandoned meanwhile.)
    const db = t.db;
    await sql`update chat_messages set status = 'streaming', content = 'half written octopus',
      writer_instance = ${t.app.services.instances.id}
      where id = ${regenerated.id}`.execute(db);
    expect(await found(token, 'octopus')).toEqual([]);
    expect(await found(token, 'narwhal')).toEqual([]);
    await sql`update chat_messages set content = 'more written octopus squid'
      where id = ${regenerated.id}`.execute(db);
    expect(await found(token, 'squid')).toEqual([]);
    await sql`update chat_messages set status = 'stopped', writer_instance = null
      where id = ${regenerated.id}`.execute(db);
    expect(await found(token, 'squid')).toEqual([regenerated.id]);

    // An edit branches: both versions of the question are found; revealing the old one shows
    // its branch again.
    fake.setDefault(() => ({ text: 'about seals' }));
    const edited = await expectOk<{ userMessage: { id: number } }>(
      t,
      '/api/aigc/chat/edit',
      { messageId: sent.userMessage.id, content: 'tell me about marine reptiles' },
      as(token),
    );
    await eventually(async () => ((await found(token, 'seals')).length === 1 ? true : undefined));
    expect(await found(token, 'tell me about marine')).toEqual([
      edited.userMessage.id,
      sent.userMessage.id,
    ]);
    const revealed = chatRevealResponse.parse(
      await expectOk(
        t,
        '/api/aigc/conversation/reveal',
        { messageId: sent.userMessage.id },
        as(token),
      ),
    );
    expect(revealed).toEqual({
      conversationId: c.id,
      roomId: seeded.room.id,
      switchedBranch: true,
    });
    const shown = await expectOk<MessageListResponse>(
      t,
      '/api/aigc/message/list',
      { conversationId: c.id },
      as(token),
    );
    expect(shown.records.map((m) => m.id)).toContain(sent.userMessage.id);
    const again = await expectOk(
      t,
      '/api/aigc/conversation/reveal',
      { messageId: sent.userMessage.id },
      as(token),
    );
    expect(again).toMatchObject({ switchedBranch: false });
    // Nobody else can reveal it.
    const other = await t.loginMember();
    const refused = await t.post(
      '/api/aigc/conversation/reveal',
      { messageId: sent.userMessage.id },
      as(other.token),
    );
    expect(refused.json.code).not.toBe(0);

    // A renamed conversation is found by its new title only.
    await expectOk(
      t,
      '/api/aigc/conversation/rename',
      { id: c.id, title: 'Pinniped notes' },
      as(token),
    );
    expect(
      (await search(token, { keywords: 'pinniped' })).titles.map((h) => h.conversation.id),
    ).toEqual([c.id]);
    expect((await search(token, { keywords: 'marine mammals' })).titles).toEqual([]);

    // Deleted: every hit goes with it.
    await expectOk(t, '/api/aigc/conversation/delete', { id: c.id }, as(token));
    expect(await found(token, 'marine')).toEqual([]);
    expect(await found(token, 'seals')).toEqual([]);
    expect((await search(token, { keywords: 'pinniped' })).titles).toEqual([]);
    if (kind === 'sqlite') {
      const { rows } = await sql<{ n: number }>`select count(*) as n from chat_message_fts
        where chat_message_fts match '"marine"'`.execute(db);
      expect(Number(rows[0]?.n)).toBe(0);
      await sql`insert into chat_message_fts (chat_message_fts, rank) values ('integrity-check', 0)`.execute(
        db,
      );
    }
  });

  it('takes quotes, %, FTS syntax and odd characters literally and refuses bad input clearly', async () => {
    const { token } = await t.loginMember();
    const c = await newConversation(t, token, seeded.room.id);
    fake.setDefault(() => ({ text: 'done' }));
    const sent = await ask(token, c.id, 'say "hello AND goodbye" at 100% (NEAR* x^2) -- o\'clock');
    for (const words of [
      '"hello',
      'AND',
      '100%',
      'NEAR*',
      '(NEAR*',
      'x^2)',
      "o'clock",
      '--',
      '"hello AND goodbye"',
      '*',
      'OR NOT',
    ]) {
      const ids = await found(token, words);
      if (words === 'OR NOT') expect(ids).toEqual([]);
      else expect(ids, words).toContain(sent.userMessage.id);
    }
    expect(await found(token, '100_')).toEqual([]);
    expect(await found(token, '%')).toEqual([sent.userMessage.id]);
    for (const body of [
      { keywords: '   ' },
      { keywords: 'a b c d e f g h i' },
      { keywords: 'x', limit: 0 },
      { keywords: 'x', before: -1 },
    ]) {
      const { json } = await t.post('/api/aigc/conversation/search_all', body, as(token));
      expect(json.code, JSON.stringify(body)).not.toBe(0);
      expect(json.msg).toBeTruthy();
    }
  });

  /** Inserts `count` done messages straight into the database, in one conversation each 20. */
  async function bulk(memberId: number, count: number, text: (i: number) => string) {
    const db = t.db;
    const ids: number[] = [];
    for (let i = 0; i < count; i += 20) {
      const { rows } = await sql<{ id: number }>`insert into chat_conversations
          (room_id, member_id, title, created_at, updated_at)
        values (${seeded.room.id}, ${memberId}, ${'Bulk ' + i}, 1, 1) returning id`.execute(db);
      const conversation = Number(rows[0]?.id);
      const values = Array.from(
        { length: Math.min(20, count - i) },
        (_, k) => sql`(${conversation}, 'user', ${text(i + k)}, '[]', 'done', '', 1, 1)`,
      );
      const inserted = await sql<{ id: number }>`insert into chat_messages
          (conversation_id, role, content, images, status, error, created_at, updated_at)
        values ${sql.join(values)} returning id`.execute(db);
      ids.push(...inserted.rows.map((r) => Number(r.id)));
    }
    return ids;
  }

  it.runIf(kind === 'sqlite')(
    'bounds one request’s walk: a short page answers where it stopped and "more" carries on',
    async () => {
      const mine = await t.loginMember();
      const other = await t.loginMember();
      const [old] = await bulk(mine.user.id, 1, () => 'an old note about quokka habits');
      // Newer than it: more matches of another member than one request looks through.
      await bulk(other.user.id, 10_050, (i) => `quokka sighting number ${i}`);
      const first = await search(mine.token, { keywords: 'quokka' });
      expect(first.records).toEqual([]);
      expect(first.next).not.toBeNull();
      const second = await search(mine.token, { keywords: 'quokka', before: first.next });
      expect(second.records.map((r) => r.messageId)).toEqual([old]);
      expect(second.next).toBeNull();
    },
  );

  it('finds 1-2 character words in a long history too (a walk of the index, not of the messages)', async () => {
    const { user, token } = await t.loginMember();
    // More conversations than a short history: SQLite walks the index's rows.
    const ids = await bulk(user.id, 20 * 510, (i) =>
      i % 1000 === 7 ? `第${i}号：猫咪` : `row ${i}`,
    );
    const hits: number[] = [];
    let before: number | undefined;
    for (let page = 0; page < 20; page += 1) {
      const answer = await search(
        token,
        before === undefined ? { keywords: '猫' } : { keywords: '猫', before },
      );
      hits.push(...answer.records.map((r) => r.messageId));
      if (answer.next === null) break;
      before = answer.next;
    }
    expect(hits).toEqual(ids.filter((_, i) => i % 1000 === 7).reverse());
    const other = await t.loginMember();
    expect(await found(other.token, '猫')).toEqual([]);
  });

  it('reads through the index, never a scan of the messages', async () => {
    const repo = new ChatSearchRepository(chatDb(t.db));
    const query = repo
      .messageQuery({
        memberId: 1,
        terms: searchTerms('zeppelin'),
        limit: 20,
      })
      .compile(t.db);
    const titles = repo
      .titleQuery({ memberId: 1, terms: searchTerms('zeppelin'), limit: 10 })
      .compile(t.db);
    if (kind === 'sqlite') {
      const plan = async (q: typeof query) =>
        (
          await t.db.executeQuery<{ detail: string }>({
            ...q,
            sql: `explain query plan ${q.sql}`,
          })
        ).rows.map((r) => r.detail);
      const messages = await plan(query);
      expect(messages.join('\n')).toMatch(/SCAN chat_message_fts VIRTUAL TABLE INDEX \d+:M/);
      expect(messages).toContain('SEARCH m USING INTEGER PRIMARY KEY (rowid=?)');
      expect(messages).toContain('SEARCH c USING INTEGER PRIMARY KEY (rowid=?)');
      expect(messages.some((d) => /^SCAN (m|c)\b/.test(d))).toBe(false);
      const titlePlan = await plan(titles);
      expect(titlePlan.join('\n')).toMatch(/SCAN chat_title_fts VIRTUAL TABLE INDEX \d+:M/);
      expect(titlePlan.some((d) => /^SCAN c\b/.test(d))).toBe(false);
    } else {
      // The test database is tiny: the planner would rightly scan it. With scans priced out, the
      // plan must be index-backed throughout: the member's conversations by the member index,
      // or the matches by the trigram index (the planner picks by the member's share).
      expect(await repo.indexed()).toBe(true);
      const plans = await t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const explain = async (q: typeof query) =>
          (await trx.executeQuery<Record<string, string>>({ ...q, sql: `explain ${q.sql}` })).rows
            .map((r) => Object.values(r)[0])
            .join('\n');
        return [await explain(query), await explain(titles)];
      });
      for (const plan of plans)
        expect(plan).not.toMatch(/Seq Scan on chat_(messages|conversations)/);
      // Without the member's conversations to start from, the trigram indexes serve the words.
      const words = await t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const plan = async (q: ReturnType<typeof sql>) =>
          (await q.execute(trx)).rows.map((r) => Object.values(r as object)[0]).join('\n');
        return [
          await plan(sql`explain select id from chat_messages
            where status <> 'streaming' and content ilike '%zeppelin%'`),
          await plan(sql`explain select id from chat_conversations where title ilike '%zeppelin%'`),
        ];
      });
      expect(words[0]).toContain(chatSearchIndexes.content);
      expect(words[1]).toContain(chatSearchIndexes.title);
    }
  });
});
