import type { DocumentListResponse, DocumentRecord } from '@atrium/shared/contract/chat-docs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocxBomb, makePdfBomb } from '../../testing/bomb-fixtures.mjs';
import { startFakeOpenAi, type FakeOpenAi } from '../../testing/fake-openai';
import { answeredWithinMs, sampleWhile } from '../../testing/latency';
import { createTestApp, type TestApp } from '../../testing/test-app';
import {
  eventually,
  expectOk,
  newConversation,
  seedRoom,
  TEST_API_KEY,
} from '../chat/chat.testing';
import { FileClient } from '../library/library.testing';
import { Extractor, ReaderStopped, UnreadableDocument } from './extractor';
import { tooLargeUnpacked } from './reading-limits.mjs';

const MB = 1024 * 1024;

/**
 * Decompression bombs (issue 26, point 7): a DOCX and a PDF of about 540 KB whose parts inflate
 * to 150 MB of text, as the red team's did. Each ends as unreadable in well under the seconds
 * the member waits, the process's memory stays bounded, and the server answers meanwhile.
 */
describe('documents that inflate to 150 MB', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let roomId: number;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
    t = await createTestApp({ deps: { aigc: { documents: { pollMs: 50 } } } });
    roomId = (await seedRoom(t, fake)).room.id;
  });
  afterAll(async () => {
    await t?.cleanup();
    await fake?.close();
  });

  it('end as "too large when unpacked" in seconds, in bounded memory, with calls answered', async () => {
    const { token } = await t.loginMember();
    const as = { area: 'member' as const, token };
    const files = new FileClient(t, as, 'file');
    const docx = makeDocxBomb(150);
    const pdf = makePdfBomb(150);
    expect(docx.length + pdf.length).toBeLessThan(1.2 * MB);
    // The site's default chunk size (5 MiB): each bomb is one chunk.
    const store = async (name: string, data: Buffer) => {
      const done = await files.upload({ name, data }, 5 * MB);
      const path = 'path' in done.data ? done.data.path : undefined;
      expect(done.code, done.msg).toBe(0);
      await files.call({ action: 'save', path, name, size: data.length, categoryId: 0 });
      return path ?? '';
    };
    const paths = [await store('bomb.docx', docx), await store('bomb.pdf', pdf)];
    const conversation = await newConversation(t, token, roomId);

    // A plain call every 20 ms while the bombs are read, and the process's memory.
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();
    const { result: records, sampled } = await sampleWhile(t, async () => {
      await expectOk(
        t,
        '/api/aigc/document/attach',
        { conversationId: conversation.id, paths },
        as,
      );
      return eventually(async () => {
        const list = await expectOk<DocumentListResponse>(
          t,
          '/api/aigc/document/list',
          { conversationId: conversation.id },
          as,
        );
        return list.records.every((r) => r.status === 'failed' || r.status === 'done')
          ? list.records
          : undefined;
      }, 15_000);
    });
    const elapsed = performance.now() - started;

    expect(records.map((r: DocumentRecord) => [r.name, r.status, r.error])).toEqual([
      ['bomb.docx', 'failed', '无法读取这个文件：解压后过大'],
      ['bomb.pdf', 'failed', '无法读取这个文件：解压后过大'],
    ]);
    console.info(
      `bombs refused in ${elapsed.toFixed(0)} ms; RSS ${(rssBefore / MB).toFixed(0)} -> ${(
        sampled.rssPeak / MB
      ).toFixed(0)} MB; ${sampled.latencies.length} calls, p99 ${sampled.p99.toFixed(1)} ms`,
    );
    expect(elapsed).toBeLessThan(5_000);
    // Unbounded, the two inflate to 300 MB of text and gigabytes of parsed pages.
    expect(sampled.rssPeak - rssBefore).toBeLessThan(200 * MB);
    expect(sampled.max).toBeLessThan(answeredWithinMs);
  });
});

describe('a reader thread that dies', () => {
  it('fails the document it was reading with a reason when its heap runs out', async () => {
    // A heap far too small for the text: V8 ends the thread, never the process.
    const extractor = new Extractor(20_000, { heapMb: 8, rssGrowthMb: 768 });
    try {
      const text = Buffer.from('many words of text '.repeat(200_000));
      const read = extractor.extract('txt', text);
      await expect(read).rejects.toBeInstanceOf(UnreadableDocument);
      await expect(read).rejects.toMatchObject({ reason: tooLargeUnpacked });
    } finally {
      await extractor.close();
    }
  });

  it('answers "stopped" (no verdict) when the thread is stopped mid-way, and reads on anew', async () => {
    const extractor = new Extractor(20_000);
    const pages = Array.from({ length: 400 }, (_, i) => `Page ${i + 1} of a long report.`);
    const { makePdf } = await import('../../testing/doc-fixtures.mjs');
    const read = extractor.extract('pdf', makePdf(pages));
    const verdict = expect(read).rejects.toBeInstanceOf(ReaderStopped);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await extractor.close();
    await verdict;
    const again = await extractor.extract('txt', Buffer.from('still reading'));
    expect(again.passages.map((p) => p.text)).toEqual(['still reading']);
    await extractor.close();
  });
});
