import type { MessageListResponse } from '@atrium/shared/contract/chat';
import type { DocumentListResponse, DocumentRecord } from '@atrium/shared/contract/chat-docs';
import type { FileRecord, UsageResponse } from '@atrium/shared/contract/files';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../testing/db';
import { makeDocx as docx, makePdf as pdf, makePdf } from '../../testing/doc-fixtures.mjs';
import { startFakeOpenAi, type ChatBody, type FakeOpenAi } from '../../testing/fake-openai';
import { authHeaders, createTestApp, type TestApp } from '../../testing/test-app';
import {
  eventually,
  expectOk,
  newConversation,
  seedRoom,
  send,
  TEST_API_KEY,
  type Seeded,
} from '../chat/chat.testing';
import { FileClient, useUploadConfig } from '../library/library.testing';
import { docsDb } from './chat-docs.tables';
import { Extractor, UnreadableDocument, type Extracted } from './extractor';
import { RETRIEVAL_MAX_TOKENS } from './retrieval';

describe('reading documents (extract.worker.mjs)', () => {
  const extractor = new Extractor(20_000);
  afterAll(() => extractor.close());
  const texts = (read: Extracted) => read.passages.map((passage) => passage.text);

  it('reads each format: PDF by page, DOCX, CSV rows under their header, TXT and MD', async () => {
    const progress: number[] = [];
    const read = await extractor.extract(
      'pdf',
      pdf(['First page about apples', ['Second page', 'about zebras (and more)']]),
      (done) => progress.push(done),
    );
    expect(read).toMatchObject({ paged: true, pages: 2 });
    expect(read.passages.map(({ page, text }) => [page, text.replace(/\s+/g, ' ')])).toEqual([
      [1, 'First page about apples'],
      [2, 'Second page about zebras (and more)'],
    ]);
    // Split and indexed on the reader's thread: the terms come with each passage.
    expect(read.passages[0]?.terms).toBe('first page about apples');
    expect(progress).toEqual([1, 2]);

    const word = await extractor.extract(
      'docx',
      docx(['Quarterly report', '季度报告 <draft> & co']),
    );
    expect(word).toMatchObject({ paged: false, pages: 0 });
    expect(texts(word)).toEqual([expect.stringContaining('Quarterly report')]);
    expect(texts(word)[0]).toContain('季度报告 <draft> & co');

    const csv = await extractor.extract(
      'csv',
      Buffer.from('\uFEFFcity,population\nOslo,709000\n"Bergen, West",291000\n'),
    );
    expect(texts(csv)).toEqual([
      'city: Oslo; population: 709000\ncity: Bergen, West; population: 291000',
    ]);

    const txt = await extractor.extract('txt', Buffer.from('\uFEFFplain 文本'));
    expect(texts(txt)).toEqual(['plain 文本']);
    const md = await extractor.extract('md', Buffer.from('# Title\n\nBody'));
    expect(texts(md)).toEqual(['# Title\n\nBody']);
    // Chinese text saved as GB18030 (not UTF-8) is read too.
    const gb = await extractor.extract('txt', Buffer.from([0xd6, 0xd0, 0xce, 0xc4]));
    expect(texts(gb)).toEqual(['中文']);
  });

  it('says why a file cannot be read', async () => {
    const broken = extractor.extract('pdf', Buffer.from('%PDF-1.4\nthis is not really a PDF'));
    await expect(broken).rejects.toBeInstanceOf(UnreadableDocument);
    await expect(broken).rejects.toMatchObject({ reason: { key: 'docs.invalidPdf' } });
    await expect(extractor.extract('docx', Buffer.from('PK not a zip'))).rejects.toMatchObject({
      reason: { key: 'docs.invalidWord' },
    });
    await expect(extractor.extract('txt', Buffer.from([0x61, 0, 0x62]))).rejects.toMatchObject({
      reason: { key: 'docs.notText' },
    });
    // The thread goes on reading after failures.
    expect(texts(await extractor.extract('txt', Buffer.from('still here')))).toEqual([
      'still here',
    ]);
  });
});

describe.each(testDbKinds)('documents as chat context on %s', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let seeded: Seeded;
  const as = (token: string) => ({ area: 'member' as const, token });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({
      db: kind,
      deps: { aigc: { documents: { pollMs: 50 } } },
    });
    await useUploadConfig(t);
    seeded = await seedRoom(t, fake);
  });
  afterAll(async () => {
    await t?.cleanup();
    await fake?.close();
  });

  const documents = () => t.app.features.chat.documents;

  async function member() {
    const { token } = await t.loginMember();
    return { token, files: new FileClient(t, as(token), 'file') };
  }

  const attach = (token: string, conversationId: number, paths: string[]) =>
    t.post<DocumentListResponse>('/api/aigc/document/attach', { conversationId, paths }, as(token));

  /** The conversation's documents once none is waiting or being read. */
  async function settled(token: string, conversationId: number): Promise<DocumentRecord[]> {
    return eventually(async () => {
      const { records } = await expectOk<DocumentListResponse>(
        t,
        '/api/aigc/document/list',
        { conversationId },
        as(token),
      );
      return records.every((r) => r.status === 'done' || r.status === 'failed')
        ? records
        : undefined;
    }, 20_000);
  }

  async function answered(token: string, conversationId: number, content: string) {
    const sent = await send(t, token, conversationId, content);
    expect(sent.json.code, sent.json.msg).toBe(0);
    const id = sent.json.data.assistantMessage.id;
    return eventually(async () => {
      const list = await expectOk<MessageListResponse>(
        t,
        '/api/aigc/message/list',
        { conversationId },
        as(token),
      );
      const found = list.records.find((m) => m.id === id);
      return found && found.status !== 'streaming' ? found : undefined;
    });
  }

  const systemTexts = (body: ChatBody) =>
    (body.messages ?? [])
      .filter((m) => m.role === 'system')
      .map((m) => String(m.content))
      .join('\n');

  it('reads attached PDF, DOCX, CSV, TXT and MD files and answers with cited passages', async () => {
    const { token, files } = await member();
    const manual = await files.uploadAndSave({
      name: 'manual.pdf',
      data: pdf([
        'Introduction to the garden. Apples grow here.',
        'Chapter two. The zebra migration happens every spring across the river.',
        'Appendix with unrelated numbers.',
      ]),
    });
    const report = await files.uploadAndSave({
      name: 'report.docx',
      data: docx(['The budget for lighthouse repairs is 40 thousand.', '灯塔维修的预算是四万。']),
    });
    const table = await files.uploadAndSave({
      name: 'cities.csv',
      data: Buffer.from('city,river\nVienna,Danube\nCairo,Nile\n'),
    });
    const notes = await files.uploadAndSave({
      name: 'notes.txt',
      data: Buffer.from('Remember the penguin colony count: 312.'),
    });
    const readme = await files.uploadAndSave({
      name: 'readme.md',
      data: Buffer.from('# Setup\n\nRun the volcano simulator with care.'),
    });
    const conversation = await newConversation(t, token, seeded.room.id);
    const attached = await attach(
      token,
      conversation.id,
      [manual, report, table, notes, readme].map((f) => f.path),
    );
    expect(attached.json.code, attached.json.msg).toBe(0);
    expect(attached.json.data.records.map((r) => r.name)).toEqual([
      'manual.pdf',
      'report.docx',
      'cities.csv',
      'notes.txt',
      'readme.md',
    ]);

    const ready = await settled(token, conversation.id);
    expect(ready.map((r) => [r.name, r.status, r.progress, r.pages, r.error])).toEqual([
      ['manual.pdf', 'done', 100, 3, ''],
      ['report.docx', 'done', 100, 0, ''],
      ['cities.csv', 'done', 100, 0, ''],
      ['notes.txt', 'done', 100, 0, ''],
      ['readme.md', 'done', 100, 0, ''],
    ]);

    // The model is given the relevant passage, numbered, and told to cite it; it cites [1].
    fake.script((body) => {
      const system = systemTexts(body);
      expect(system).toContain('cite each passage');
      expect(system).toMatch(/\[1\] manual\.pdf, page 2\nChapter two\. The zebra migration/);
      expect(Buffer.byteLength(system.slice(system.indexOf('The member attached')))).toBeLessThan(
        RETRIEVAL_MAX_TOKENS,
      );
      return { text: 'Zebras migrate every spring [1].' };
    });
    const answer = await answered(token, conversation.id, 'When does the zebra migration happen?');
    expect(answer.status).toBe('done');
    expect(answer.citations).toEqual([
      {
        n: 1,
        name: 'manual.pdf',
        path: manual.path,
        page: 2,
        text: expect.stringContaining('The zebra migration happens every spring') as string,
      },
    ]);

    // Other formats: Chinese words of two characters are found too (pairs of characters).
    fake.script((body) => {
      expect(systemTexts(body)).toContain('[1] report.docx\n');
      return { text: '预算是四万 [1]，另见 [7]。' };
    });
    const chinese = await answered(token, conversation.id, '灯塔的预算是多少？');
    // [7] was not given: only what was given can be cited.
    expect(chinese.citations?.map((c) => [c.n, c.name, c.page])).toEqual([[1, 'report.docx', 0]]);

    fake.script((body) => {
      expect(systemTexts(body)).toMatch(
        /cities\.csv\ncity: Vienna; river: Danube\ncity: Cairo; river: Nile/,
      );
      return { text: 'The Nile [1].' };
    });
    expect(
      (await answered(token, conversation.id, 'Which river flows through Cairo?')).citations,
    ).toHaveLength(1);

    // A question no passage matches gets no passages and no citations.
    fake.script((body) => {
      expect(systemTexts(body)).not.toContain('cite each passage');
      return { text: 'No idea [1].' };
    });
    expect((await answered(token, conversation.id, 'Qwxyz?')).citations).toBeUndefined();
  });

  it('says when a file cannot be read, and answers without it', async () => {
    const { token, files } = await member();
    const broken = await files.uploadAndSave({
      name: 'broken.pdf',
      data: Buffer.from('%PDF-1.4\nthis is not really a PDF at all\n%%EOF\n'),
    });
    const conversation = await newConversation(t, token, seeded.room.id);
    expect((await attach(token, conversation.id, [broken.path])).json.code).toBe(0);
    const [doc] = await settled(token, conversation.id);
    expect(doc?.status).toBe('failed');
    // Stored as a message: read in the language of whoever lists it.
    expect(doc?.error).toBe('无法读取这个文件：不是有效的 PDF 文件');
    const english = await t.app.inject({
      method: 'POST',
      url: '/api/aigc/document/list',
      headers: {
        'content-type': 'application/json',
        'accept-language': 'en',
        ...authHeaders('member', token),
      },
      payload: JSON.stringify({ conversationId: conversation.id }),
    });
    expect(english.json<{ data: DocumentListResponse }>().data.records[0]?.error).toBe(
      'This file cannot be read: it is not a valid PDF',
    );
    const answer = await answered(token, conversation.id, 'What does the broken file say?');
    expect(answer.status).toBe('done');
    expect(answer.citations).toBeUndefined();
  });

  it("refuses others' files, other types, others' conversations and more than 20 documents", async () => {
    const owner = await member();
    const other = await member();
    const theirs = await other.files.uploadAndSave({
      name: 'secret.txt',
      data: Buffer.from('secret words'),
    });
    const json = await owner.files.uploadAndSave({
      name: 'data.json',
      data: Buffer.from('{"a":1}'),
    });
    const conversation = await newConversation(t, owner.token, seeded.room.id);

    const refused = await attach(owner.token, conversation.id, [theirs.path]);
    expect(refused.json.code).not.toBe(0);
    expect(refused.json).toMatchObject({
      msg: `${theirs.path} 不是你自己文件库中的文件`,
      data: { error: 'docs.notOwned', params: { path: theirs.path }, field: 'paths' },
    });
    const wrongType = await attach(owner.token, conversation.id, [json.path]);
    expect(wrongType.json.msg).toMatch(/^data\.json 不能用作文档/);
    expect(wrongType.json.data).toMatchObject({ error: 'docs.unsupported', field: 'paths' });

    const mine = await owner.files.uploadAndSave({ name: 'mine.txt', data: Buffer.from('mine') });
    const intoTheirs = await attach(other.token, conversation.id, [
      (await other.files.uploadAndSave({ name: 'x.txt', data: Buffer.from('x') })).path,
    ]);
    expect(intoTheirs.json.msg).toBe('对话不存在');
    const listTheirs = await t.post(
      '/api/aigc/document/list',
      { conversationId: conversation.id },
      as(other.token),
    );
    expect(listTheirs.json.data).toMatchObject({ error: 'chat.conversationNotFound' });

    const many: FileRecord[] = [];
    for (let i = 0; i < 20; i++)
      many.push(
        await owner.files.uploadAndSave({ name: `n${i}.txt`, data: Buffer.from(`note ${i}`) }),
      );
    expect(
      (
        await attach(
          owner.token,
          conversation.id,
          many.map((f) => f.path),
        )
      ).json.code,
    ).toBe(0);
    const over = await attach(owner.token, conversation.id, [mine.path]);
    expect(over.json).toMatchObject({
      msg: '一个对话最多 20 个文档：请先移除一个',
      data: { error: 'docs.tooMany', params: { max: 20 } },
    });
  });

  it('reads a stored file once for every library holding it, names the conversation among its uses, and lets go with the conversation', async () => {
    const first = await member();
    const second = await member();
    const data = Buffer.from('Shared memo about the observatory telescope.');
    const a = await first.files.uploadAndSave({ name: 'memo.txt', data });
    const b = await second.files.uploadAndSave({ name: 'memo-copy.txt', data });
    const one = await newConversation(t, first.token, seeded.room.id);
    await expectOk(
      t,
      '/api/aigc/conversation/rename',
      { id: one.id, title: 'Stars' },
      as(first.token),
    );
    const two = await newConversation(t, second.token, seeded.room.id);
    await attach(first.token, one.id, [a.path]);
    await attach(second.token, two.id, [b.path]);
    await settled(first.token, one.id);
    await settled(second.token, two.id);

    const db = docsDb(t.db);
    const blobs = await db
      .selectFrom('files')
      .select('blobId')
      .where('path', 'in', [a.path, b.path])
      .execute();
    expect(new Set(blobs.map((row) => row.blobId)).size).toBe(1);
    const blobId = blobs[0]?.blobId ?? 0;
    const jobs = await db
      .selectFrom('chatDocExtracts')
      .selectAll()
      .where('blobId', '=', blobId)
      .execute();
    expect(jobs).toHaveLength(1);
    const passages = await db
      .selectFrom('chatDocPassages')
      .select('id')
      .where('blobId', '=', blobId)
      .execute();
    expect(passages).toHaveLength(1);

    const usage = await first.files.call<UsageResponse>({ action: 'usage', id: [a.id] });
    expect(usage.data[0]?.usedBy.map((u) => [u.kind, u.holderId, u.label])).toEqual([
      ['chatDocument', one.id, 'Stars'],
    ]);

    // Detaching lets the file go; attaching again and deleting the conversation does too.
    const listed = await settled(first.token, one.id);
    const detached = await t.post<DocumentListResponse>(
      '/api/aigc/document/detach',
      { conversationId: one.id, id: listed[0]?.id },
      as(first.token),
    );
    expect(detached.json.data.records).toEqual([]);
    const useCount = async () =>
      (await db.selectFrom('files').select('useCount').where('id', '=', a.id).executeTakeFirst())
        ?.useCount;
    expect(await useCount()).toBe(0);
    await attach(first.token, one.id, [a.path]);
    expect(await useCount()).toBe(1);
    await expectOk(t, '/api/aigc/conversation/delete', { id: one.id }, as(first.token));
    expect(await useCount()).toBe(0);
    expect(
      await db
        .selectFrom('chatDocuments')
        .select('id')
        .where('conversationId', '=', one.id)
        .execute(),
    ).toEqual([]);
  });

  it('takes over reading a document whose instance died', async () => {
    const { token, files } = await member();
    const file = await files.uploadAndSave({
      name: 'atlas.pdf',
      data: pdf(['Maps of the northern fjords.', 'Maps of the southern deserts.']),
    });
    const db = docsDb(t.db);
    const row = await db
      .selectFrom('files')
      .select('blobId')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    // An instance that started reading it, wrote part of it and was killed (its heartbeat stopped).
    const now = t.clock.now();
    await db
      .insertInto('instances')
      .values({ id: 'dead-instance', startedAt: now - 60_000, heartbeatAt: now - 60_000 })
      .execute();
    await db
      .insertInto('chatDocExtracts')
      .values({
        blobId: row.blobId,
        ext: 'pdf',
        status: 'running',
        progress: 40,
        instanceId: 'dead-instance',
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await documents().docs.repo.insertPassages(row.blobId, [
      { seq: 0, page: 1, text: 'half-written leftover', terms: 'half written leftover' },
    ]);

    const conversation = await newConversation(t, token, seeded.room.id);
    await attach(token, conversation.id, [file.path]);
    const [doc] = await settled(token, conversation.id);
    expect(doc).toMatchObject({ status: 'done', pages: 2, passages: 2 });
    const texts = await db
      .selectFrom('chatDocPassages')
      .select('text')
      .where('blobId', '=', row.blobId)
      .orderBy('seq')
      .execute();
    expect(texts.map((r) => r.text)).toEqual([
      'Maps of the northern fjords.',
      'Maps of the southern deserts.',
    ]);
    // The leftover is gone from the index too.
    expect(await documents().docs.repo.search([row.blobId], ['leftover'], 5)).toEqual([]);
    expect(await documents().docs.repo.search([row.blobId], ['deserts'], 5)).toHaveLength(1);
  });

  it('never makes an answer wait for a document still being read', async () => {
    const { token, files } = await member();
    const file = await files.uploadAndSave({ name: 'slow.txt', data: Buffer.from('slow words') });
    const db = docsDb(t.db);
    const row = await db
      .selectFrom('files')
      .select('blobId')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    // Being read by another live instance.
    const now = t.clock.now();
    await db
      .insertInto('instances')
      .values({ id: 'live-reader', startedAt: now, heartbeatAt: now })
      .execute();
    await db
      .insertInto('chatDocExtracts')
      .values({
        blobId: row.blobId,
        ext: 'txt',
        status: 'running',
        progress: 30,
        instanceId: 'live-reader',
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const conversation = await newConversation(t, token, seeded.room.id);
    await attach(token, conversation.id, [file.path]);
    fake.script((body) => {
      expect(systemTexts(body)).not.toContain('slow words');
      return { text: 'Answered at once.' };
    });
    const answer = await answered(token, conversation.id, 'What do the slow words say?');
    expect(answer.content).toBe('Answered at once.');
    const { records } = await expectOk<DocumentListResponse>(
      t,
      '/api/aigc/document/list',
      { conversationId: conversation.id },
      as(token),
    );
    expect(records[0]).toMatchObject({ status: 'running', progress: 30 });
    await sql`delete from chat_doc_extracts where blob_id = ${row.blobId}`.execute(t.db);
    await sql`delete from instances where id = 'live-reader'`.execute(t.db);
  });

  it('queues again a job left running under this instance while it reads nothing', async () => {
    // What a reader that gave up used to leave behind: the row named this live instance, so no
    // other instance took it, and this one never looked at it again.
    const { token, files } = await member();
    const file = await files.uploadAndSave({
      name: 'left.txt',
      data: Buffer.from('Words of a job left behind.'),
    });
    const db = docsDb(t.db);
    const { blobId } = await db
      .selectFrom('files')
      .select('blobId')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    const now = t.clock.now();
    await db
      .insertInto('chatDocExtracts')
      .values({
        blobId,
        ext: 'txt',
        status: 'running',
        progress: 30,
        instanceId: t.app.services.instances.id,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const conversation = await newConversation(t, token, seeded.room.id);
    await attach(token, conversation.id, [file.path]);
    const [doc] = await settled(token, conversation.id);
    expect(doc).toMatchObject({ status: 'done', passages: 1, error: '' });
    const job = await db
      .selectFrom('chatDocExtracts')
      .select(['status', 'instanceId', 'attempts'])
      .where('blobId', '=', blobId)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'done', instanceId: null, attempts: 1 });
  });
});

describe.each(testDbKinds)('documents with an embedding model on %s', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let seeded: Seeded;
  const as = (token: string) => ({ area: 'member' as const, token });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({
      db: kind,
      env: { ATRIUM_EMBEDDING_MODEL: 'fake-embed' },
      deps: { aigc: { documents: { pollMs: 50 } } },
    });
    await useUploadConfig(t);
    seeded = await seedRoom(t, fake);
    await expectOk(
      t,
      '/admin/api/aigc/model/save',
      { id: 0, providerId: seeded.provider.id, name: 'fake-embed', title: 'Embeddings' },
      { area: 'admin', token: seeded.adminToken },
    );
  });
  afterAll(async () => {
    await t?.cleanup();
    await fake?.close();
  });

  it("gives passages vectors from the provider's /v1/embeddings and embeds each question", async () => {
    const { token } = await t.loginMember();
    const files = new FileClient(t, as(token), 'file');
    const file = await files.uploadAndSave({
      name: 'fauna.pdf',
      data: makePdf(['Owls hunt at night in the pine forest.', 'Otters swim in the cold river.']),
    });
    const conversation = await newConversation(t, token, seeded.room.id);
    await expectOk(
      t,
      '/api/aigc/document/attach',
      { conversationId: conversation.id, paths: [file.path] },
      as(token),
    );
    await eventually(async () => {
      const { records } = await expectOk<DocumentListResponse>(
        t,
        '/api/aigc/document/list',
        { conversationId: conversation.id },
        as(token),
      );
      return records[0]?.status === 'done' ? records : undefined;
    }, 20_000);
    const db = docsDb(t.db);
    const blob = await db
      .selectFrom('files')
      .select('blobId')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    const extract = await db
      .selectFrom('chatDocExtracts')
      .select('embeddingModel')
      .where('blobId', '=', blob.blobId)
      .executeTakeFirstOrThrow();
    expect(extract.embeddingModel).toBe('fake-embed');
    const vectors = await db
      .selectFrom('chatDocPassages')
      .select('vector')
      .where('blobId', '=', blob.blobId)
      .execute();
    expect(vectors).toHaveLength(2);
    for (const { vector } of vectors) expect(Buffer.from(vector ?? '', 'base64')).toHaveLength(256);

    fake.script((body) => {
      expect(String(body.messages?.[0]?.content)).toMatch(/\[1\] fauna\.pdf, page 2\nOtters/);
      return { text: 'Otters swim [1].' };
    });
    const sent = await send(t, token, conversation.id, 'Where do otters swim?');
    const id = sent.json.data.assistantMessage.id;
    const answer = await eventually(async () => {
      const list = await expectOk<MessageListResponse>(
        t,
        '/api/aigc/message/list',
        { conversationId: conversation.id },
        as(token),
      );
      const found = list.records.find((m) => m.id === id);
      return found?.status === 'done' ? found : undefined;
    });
    expect(answer.citations?.map((c) => [c.n, c.page])).toEqual([[1, 2]]);
    const embedded = fake.requests
      .filter((r) => r.path.endsWith('/embeddings'))
      .map((r) => (r.body as { input: string[] }).input);
    expect(embedded).toContainEqual(['Where do otters swim?']);
  });
});
