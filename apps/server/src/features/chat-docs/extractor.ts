import { Worker } from 'node:worker_threads';
import { message, type MessageRef } from '@atrium/shared/messages/catalogue';
import { READER_HEAP_MB, READER_RSS_GROWTH_MB, tooLargeUnpacked } from './reading-limits.mjs';

/**
 * The worker sits next to this module in the sources and next to the bundle in dist (build.mjs
 * builds it there), so the same URL finds it in both.
 */
const workerFile = new URL('./extract.worker.mjs', import.meta.url);

/** One passage of a document as the reader split it, with its indexed terms. */
export interface ReadPassage {
  /** 1-based page (PDF), 0 for formats without pages. */
  page: number;
  text: string;
  terms: string;
}

/** What reading a document found: its passages, and its pages when it has pages. */
export interface Extracted {
  passages: ReadPassage[];
  pages: number;
  paged: boolean;
}

/**
 * Why a document could not be read: `reason` is the catalogue message the member reads ("this
 * file cannot be read: …", in their language), the error's message the detail for the log.
 */
export class UnreadableDocument extends Error {
  constructor(
    readonly reason: MessageRef,
    detail?: string,
  ) {
    super(detail ? `${reason.key}: ${detail}` : reason.key);
    this.name = 'UnreadableDocument';
  }
}

/**
 * The reader stopped without an answer about the document (its thread crashed, or was stopped
 * as the instance shuts down): no verdict on the file, so its job may be tried again.
 */
export class ReaderStopped extends Error {}

interface Reply {
  id: number;
  done?: number;
  total?: number;
  passages?: ReadPassage[];
  pages?: number;
  paged?: boolean;
  /** Why the document cannot be read, a catalogue message; `detail` is for the log. */
  error?: MessageRef;
  detail?: string;
}

interface Waiter {
  resolve: (value: Extracted) => void;
  reject: (error: Error) => void;
  onProgress: (done: number, total: number) => void;
  timer: NodeJS.Timeout;
  /** The thread reading it: a replaced thread's late exit must not fail its successor's work. */
  worker: Worker;
}

/** How often the reader's memory is looked at while it reads. */
const WATCH_MS = 100;

/**
 * Reads documents' text on a thread of its own (extract.worker.mjs), one at a time: a 100-page
 * PDF is seconds of parsing that must never hold up requests or answers being streamed. The
 * thread runs under hard bounds (reading-limits.mjs): a heap of READER_HEAP_MB (past it V8 ends
 * the thread, not the process), a watch on the process's resident memory (decoded streams live
 * outside the heap), and `timeoutMs` of wall-clock time. A thread stopped by any of them is
 * replaced for the next document.
 */
export class Extractor {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiters = new Map<number, Waiter>();

  constructor(
    private readonly timeoutMs = 120_000,
    private readonly limits: { heapMb: number; rssGrowthMb: number } = {
      heapMb: READER_HEAP_MB,
      rssGrowthMb: READER_RSS_GROWTH_MB,
    },
    /** A pause after each page read: a test's reading pace (ATRIUM_TEST_READ_PAGE_MS), else 0. */
    private readonly pageMs = 0,
  ) {}

  /** Ends the thread and fails what it was reading with `error`. */
  private stop(worker: Worker, error: Error): void {
    if (this.worker === worker) this.worker = undefined;
    for (const [id, waiter] of this.waiters) {
      if (waiter.worker !== worker) continue;
      this.waiters.delete(id);
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    void worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile, {
      resourceLimits: {
        maxOldGenerationSizeMb: this.limits.heapMb,
        maxYoungGenerationSizeMb: 32,
        stackSizeMb: 4,
      },
    });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiters.get(reply.id);
      if (!waiter) return;
      if (reply.done !== undefined && reply.total !== undefined) {
        waiter.onProgress(reply.done, reply.total);
        return;
      }
      this.waiters.delete(reply.id);
      clearTimeout(waiter.timer);
      if (reply.error !== undefined)
        waiter.reject(new UnreadableDocument(reply.error, reply.detail));
      else
        waiter.resolve({
          passages: reply.passages ?? [],
          pages: reply.pages ?? 0,
          paged: reply.paged === true,
        });
    });
    worker.on('error', (error: Error & { code?: string }) => {
      // Past its heap the thread is ended by V8: the document needed more than it may have.
      this.stop(
        worker,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new UnreadableDocument(tooLargeUnpacked)
          : new ReaderStopped(`the document reader failed (${error.message})`),
      );
    });
    worker.on('exit', (code) =>
      this.stop(worker, new ReaderStopped(`the document reader stopped (${code})`)),
    );
    this.worker = worker;
    return worker;
  }

  /** The text of a document of type `ext` in passages; `onProgress` hears pages read so far. */
  extract(
    ext: string,
    bytes: Uint8Array,
    onProgress: (done: number, total: number) => void = () => undefined,
  ): Promise<Extracted> {
    const worker = this.start();
    const id = this.nextId++;
    const before = process.memoryUsage.rss();
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - before > this.limits.rssGrowthMb * 1024 * 1024)
        this.stop(worker, new UnreadableDocument(tooLargeUnpacked));
    }, WATCH_MS);
    watch.unref();
    return new Promise<Extracted>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stop(
          worker,
          new UnreadableDocument(
            message('docs.tookTooLong', { seconds: Math.round(this.timeoutMs / 1000) }),
          ),
        );
      }, this.timeoutMs);
      this.waiters.set(id, { resolve, reject, onProgress, timer, worker });
      worker.postMessage({ id, ext, bytes, pageMs: this.pageMs });
    }).finally(() => clearInterval(watch));
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.stop(worker, new ReaderStopped('the document reader was closed'));
    await worker.terminate();
  }
}
