import type { Envelope } from '@atrium/shared';
import type { ChatImportResponse, ExportedConversation } from '@atrium/shared/contract/chat-export';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../testing/fake-openai';
import { answeredWithinMs, sampleWhile, type Sampled } from '../../../testing/latency';
import { authHeaders, createTestApp, type TestApp } from '../../../testing/test-app';
import { seedRoom, TEST_API_KEY } from '../chat.testing';
import { chatDb } from '../chat.tables';
import { exportedMessage } from './archive.testing';

/**
 * Imports and exports on SQLite, whose statements all run on the event loop (issue 26, point 8):
 * a large import and an export of many messages at once leave other members' calls fast, and a
 * member runs one import or export at a time.
 */
describe('imports and exports beside other members on SQLite', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let roomId: number;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp();
    roomId = (await seedRoom(t, fake)).room.id;
  });
  afterAll(async () => {
    await t?.cleanup();
    await fake?.close();
  });

  /** A member holding `conversations` conversations of `each` messages, written in SQL. */
  async function memberWith(conversations: number, each: number) {
    const { token, user } = await t.loginMember();
    const text = 'A line of a long conversation about the northern fjords and their maps. '.repeat(
      3,
    );
    for (let c = 0; c < conversations; c++) {
      const { id } = await chatDb(t.db)
        .insertInto('chatConversations')
        .values({
          roomId,
          memberId: user.id,
          title: `Conversation ${c + 1}`,
          createdAt: 1700000000000,
          updatedAt: 1700000000000,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const base = Number(
        (
          await sql<{
            next: number;
          }>`select coalesce(max(id), 0) + 1 as next from chat_messages`.execute(t.db)
        ).rows[0]?.next,
      );
      await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${each})
        insert into chat_messages (id, conversation_id, parent_id, role, content, images, status,
          error, created_at, updated_at)
        select ${base} + i, ${id}, case when i = 0 then null else ${base} + i - 1 end,
          case when i % 2 = 0 then 'user' else 'assistant' end, ${text} || i, '[]', 'done', '',
          1700000000000 + i, 1700000000000 + i
        from n`.execute(t.db);
    }
    return token;
  }

  /** An export file of `conversations` conversations of `each` messages (about 250 bytes each). */
  function exportFile(conversations: number, each: number): string {
    const list: ExportedConversation[] = Array.from({ length: conversations }, (_, c) => ({
      id: c + 1,
      title: `Imported ${c + 1}`,
      room: { id: roomId, title: 'Room' },
      leafId: null,
      createdAt: 1700000000000,
      updatedAt: 1700000000000,
      messages: Array.from({ length: each }, (_, i) =>
        exportedMessage({
          id: i + 1,
          parentId: i === 0 ? null : i,
          role: i % 2 === 0 ? 'user' : 'assistant',
          content: `Message ${i} of an imported conversation, long enough to weigh what real ones do: ${'x'.repeat(120)}`,
          createdAt: 1700000000000 + i,
          updatedAt: 1700000000000 + i,
        }),
      ),
    }));
    return JSON.stringify({
      format: 'atrium-chat-export',
      version: 1,
      exportedAt: 1700000000000,
      conversations: list,
    });
  }

  const exportAll = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/aigc/conversation/export',
      headers: { 'content-type': 'application/json', ...authHeaders('member', token) },
      payload: JSON.stringify({ format: 'markdown', lang: 'en' }),
    });
  /** The request's body is written before it is timed: serialising it is the client's work. */
  const importFile = async (token: string, file: string) => {
    const payload = JSON.stringify({ file });
    return async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/aigc/conversation/import',
        headers: { 'content-type': 'application/json', ...authHeaders('member', token) },
        payload,
      });
      return { res, json: res.json<Envelope<ChatImportResponse>>() };
    };
  };

  it('a large import and an export of many messages leave plain calls answered', async () => {
    const messages = 60_000;
    const exporter = await memberWith(60, messages / 60);
    const importer = (await t.loginMember()).token;
    // About 10 MB, the largest file an import takes (chatImportMaxChars).
    const file = exportFile(112, 220);
    expect(file.length).toBeGreaterThan(9.5 * 1024 * 1024);
    const MB = 1024 * 1024;
    const report = (what: string, ms: number, sampled: Sampled) =>
      console.info(
        `${what} in ${ms.toFixed(0)} ms: ${sampled.latencies.length} calls, p99 ` +
          `${sampled.p99.toFixed(1)} ms, max ${sampled.max.toFixed(1)} ms`,
      );

    let started = performance.now();
    const exportAlone = await sampleWhile(t, () => exportAll(exporter));
    report(`export of ${messages} messages`, performance.now() - started, exportAlone.sampled);
    expect(exportAlone.result.body.split('\n#### ').length - 1).toBe(messages);
    expect(exportAlone.sampled.max).toBeLessThan(answeredWithinMs);

    started = performance.now();
    const sendImport = await importFile(importer, file);
    const both = await sampleWhile(t, () => Promise.all([sendImport(), exportAll(exporter)]));
    report(
      `import of ${(file.length / MB).toFixed(1)} MB with the export`,
      performance.now() - started,
      both.sampled,
    );
    const [imported, exported] = both.result;
    expect(imported.json.code, imported.json.msg).toBe(0);
    expect(imported.json.data.messages).toBe(112 * 220);
    expect(exported.body.split('\n#### ').length - 1).toBe(messages);
    // Before the bounds one such import held every call for seconds (6 at once: 25.8 s). The file
    // is parsed off the event loop (archive-parse.ts) and, on SQLite, written off it too
    // (archive-writer.ts): FTS5 merging its segments inside single inserts (50-1,000 ms each)
    // happens on the writer's thread; what is left on the event loop is the export's slices and
    // any write of the instance that waits for the writer's lock (the FTS merger's steps).
    expect(both.sampled.max).toBeLessThan(answeredWithinMs);
  }, 120_000);

  it('runs one import or export of a member at a time, refusing the others', async () => {
    const token = await memberWith(4, 1_000);
    const sendSmall = await importFile(token, exportFile(1, 2));
    const [first, second, third, anImport] = await Promise.all([
      exportAll(token),
      exportAll(token),
      exportAll(token),
      sendSmall(),
    ]);
    // Whichever came first runs; the others are refused, naming it.
    const answers = [first, second, third].map((res) =>
      res.headers['content-type']?.toString().startsWith('text/markdown') ? 'file' : res.json(),
    );
    const exported = answers.filter((a) => a === 'file').length;
    const imported = anImport.json.code === 0 ? 1 : 0;
    expect(exported + imported).toBe(1);
    const refusal = {
      code: -1,
      msg: `已有一个${imported ? '导入' : '导出'}正在进行，请等它结束后再试`,
      data: { error: imported ? 'chat.importRunning' : 'chat.exportRunning', params: {} },
    };
    expect(answers.filter((a) => a !== 'file')).toEqual(Array(3 - exported).fill(refusal));
    if (!imported) expect(anImport.json).toEqual(refusal);

    // Once it ended, the member's next one runs.
    expect((await exportAll(token)).statusCode).toBe(200);
    const again = await sendSmall();
    expect(again.json.code, again.json.msg).toBe(0);
  });
});
