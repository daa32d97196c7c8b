import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { errorFromThread, type ThreadError } from '../../../db/sqlite-connection.mjs';
import type { WriteGate } from '../../../db/sqlite-write-gate';

/**
 * The worker sits next to this module in the sources and next to the bundle in dist (build.mjs
 * builds it there), so the same URL finds it in both.
 */
const workerFile = new URL('./append.worker.mjs', import.meta.url);

export interface AppendThreadOptions {
  /** The SQLite database's file (`sqliteFileOf`). */
  file: string;
  /** How long the thread's statement waits for SQLite's write lock. */
  busyTimeoutMs: number;
  /**
   * How long one write may take before the thread is deemed stuck: it is ended, the write and
   * those queued behind it fail (the flusher tries them again), and the next write starts a new
   * thread. A write that committed though it was given up is never doubled (its seq is stored).
   */
  writeTimeoutMs: number;
  /**
   * The turn to write among this process's writers to the file (`writeGateOf`): each task takes
   * it, so the instance's own writes wait for it on a queue, not in SQLite's busy handler.
   */
  gate?: WriteGate;
}

type Reply = { id: number; ids: number[] } | { id: number; error: ThreadError };

type Task =
  | { op: 'append'; rows: string; writer: string; again: boolean }
  | { op: 'fold'; rows: string; writer: string; now: number }
  | { op: 'sweep'; after: number; limit: number }
  | { op: 'index'; limit: number };

interface Waiting {
  resolve: (ids: number[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The group commit's statements on a thread of its own (append.worker.mjs), for SQLite: the
 * instance's event loop only hands the rows over and hears which answers were written. Started
 * with the first write, started again after it died or got stuck, ended with `close`.
 */
export class AppendThread {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: AppendThreadOptions) {}

  /**
   * Runs the append of `rows` (the statement's JSON array; `again`: a write tried again, see
   * append-sql.mjs); answers the ids of the answers appended to.
   */
  append(rows: string, writer: string, again: boolean): Promise<number[]> {
    return this.run({ op: 'append', rows, writer, again });
  }

  /** Folds the text of `rows` into the writer's streaming answers (append-sql.mjs, `foldSql`). */
  async fold(rows: string, writer: string, now: number): Promise<void> {
    await this.run({ op: 'fold', rows, writer, now });
  }

  /** One step of the parts' sweep (append-sql.mjs, `sweepSql`): its last key, if any. */
  async sweep(after: number, limit: number): Promise<number | undefined> {
    return (await this.run({ op: 'sweep', after, limit }))[0];
  }

  /** One step of the search index's queue (fts-queue-sql.mjs): how many messages it took. */
  async index(limit: number): Promise<number> {
    return (await this.run({ op: 'index', limit }))[0] ?? 0;
  }

  private async run(task: Task): Promise<number[]> {
    const { gate } = this.options;
    // A closed thread refuses at once, without waiting for a turn.
    if (!gate || this.closed) return this.post(task);
    return gate.run(() => this.post(task));
  }

  private post(task: Task): Promise<number[]> {
    if (this.closed) return Promise.reject(new Error('the answers writer thread is closed'));
    const worker = this.running();
    const id = this.nextId++;
    return new Promise<number[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(
          worker,
          new Error(`the answers writer thread took over ${this.options.writeTimeoutMs} ms`),
        );
      }, this.options.writeTimeoutMs);
      this.waiting.set(id, { resolve, reject, timer });
      worker.postMessage({ id, ...task });
    });
  }

  /** Closes the thread's connection after the writes under way; ends it if it does not go. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exit = once(worker, 'exit').catch(() => undefined);
    worker.postMessage({ op: 'close' });
    const late = setTimeout(() => void worker.terminate(), this.options.writeTimeoutMs);
    await exit;
    clearTimeout(late);
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile, {
      workerData: { file: this.options.file, busyTimeoutMs: this.options.busyTimeoutMs },
    });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      clearTimeout(waiter.timer);
      if ('error' in reply) waiter.reject(errorFromThread(reply.error));
      else waiter.resolve(reply.ids);
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => {
      this.fail(worker, new Error(`the answers writer thread stopped (${String(code)})`));
    });
    this.worker = worker;
    return worker;
  }

  /** The thread is done for: every write it holds fails, and the next write starts another. */
  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    void worker.terminate();
    for (const waiter of this.waiting.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiting.clear();
  }
}
