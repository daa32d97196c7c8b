import { Worker } from 'node:worker_threads';

/**
 * The worker sits next to this module in the sources and next to the bundle in dist (build.mjs
 * builds it there), so the same URL finds it in both.
 */
const workerFile = new URL('./extract.worker.mjs', import.meta.url);

/** What reading a document found: its text a page (one string when it has no pages). */
export interface Extracted {
  pages: string[];
  paged: boolean;
}

/** Why a document could not be read, in words for the member ("this file cannot be read: …"). */
export class UnreadableDocument extends Error {}

interface Reply {
  id: number;
  done?: number;
  total?: number;
  pages?: string[];
  paged?: boolean;
  error?: string;
}

interface Waiter {
  resolve: (value: Extracted) => void;
  reject: (error: Error) => void;
  onProgress: (done: number, total: number) => void;
  timer: NodeJS.Timeout;
}

/**
 * Reads documents' text on a thread of its own (extract.worker.mjs), one at a time: a 100-page
 * PDF is seconds of parsing that must never hold up requests or answers being streamed. A
 * document the thread has not finished after `timeoutMs` fails, and the thread is replaced.
 */
export class Extractor {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiters = new Map<number, Waiter>();

  constructor(private readonly timeoutMs = 120_000) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile);
    const fail = (error: Error) => {
      if (this.worker === worker) {
        this.worker = undefined;
        void worker.terminate();
      }
      for (const waiter of this.waiters.values()) {
        clearTimeout(waiter.timer);
        waiter.reject(error);
      }
      this.waiters.clear();
    };
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
      if (reply.error !== undefined) waiter.reject(new UnreadableDocument(reply.error));
      else waiter.resolve({ pages: reply.pages ?? [], paged: reply.paged === true });
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the document reader stopped (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** The text of a document of type `ext`; `onProgress` hears pages read so far. */
  extract(
    ext: string,
    bytes: Uint8Array,
    onProgress: (done: number, total: number) => void = () => undefined,
  ): Promise<Extracted> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Extracted>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        reject(
          new UnreadableDocument(
            `reading it took longer than ${Math.round(this.timeoutMs / 1000)} seconds`,
          ),
        );
        // The thread is stuck in this document: the next one gets a fresh thread.
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
      }, this.timeoutMs);
      this.waiters.set(id, { resolve, reject, onProgress, timer });
      worker.postMessage({ id, ext, bytes });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}
