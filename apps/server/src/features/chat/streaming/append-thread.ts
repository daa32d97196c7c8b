import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import {
  errorFromThread,
  stopThread,
  threadStopFlag,
  type ThreadError,
} from '../../../db/sqlite-connection.mjs';
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
  /**
   * How long a new thread may take to open its connection before it is deemed stuck (its writes
   * fail, and the next write starts another); at least `writeTimeoutMs`, and `STARTUP_MS` unless
   * given (tests give less).
   */
  startupMs?: number;
}

/** One step of a tick's tidying, as the thread answers it: its value, or why it failed. */
export type ThreadStep<T> = { value: T } | { error: ThreadError };

/**
 * What a tick's tidying did (append.worker.mjs, `tick`): each step asked for, if the appends
 * went through (none was taken otherwise). `sweep`: the step's last key, null past the end;
 * `index`: how many messages the step took off the queue.
 */
export interface ThreadTidy {
  fold?: ThreadStep<undefined>;
  sweep?: ThreadStep<number | null>;
  index?: ThreadStep<number>;
}

/** A tick: its appends, and the tidying that follows them on the thread (`AppendThread.tick`). */
export interface ThreadTick {
  /** The appends' JSON arrays, each one statement. */
  rows: string[];
  writer: string;
  again: boolean;
  /** The folds' JSON arrays, each one transaction; none, for no fold. */
  folds: string[];
  now: number;
  sweep: { after: number; limit: number } | null;
  /** The index step's limit, or null for none. */
  index: number | null;
}

type Reply =
  | { ready: true }
  | { id: number; ids: number[] }
  | { id: number; tidy: ThreadTidy }
  | { id: number; error: ThreadError };

interface Waiting {
  resolve: (value: never) => void;
  reject: (error: Error) => void;
  /** Started once the thread is ready: its start is not a write taking long. */
  timer?: NodeJS.Timeout;
}

/** How long a thread may take to open its connection, at the least (a loaded machine is slow). */
const STARTUP_MS = 10_000;

/**
 * The group commit's statements on a thread of its own (append.worker.mjs), for SQLite: the
 * instance's event loop only hands the rows over and hears which answers were written. Started
 * with the first write, started again after it died or got stuck, ended with `close`.
 */
export class AppendThread {
  private worker: Worker | undefined;
  /** The current thread's stop flag (`fail`), set with it. */
  private retired: Int32Array | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;
  /** When the current thread has opened its connection and prepared its statements. */
  private started: Promise<void> = Promise.resolve();
  private startup: NodeJS.Timeout | undefined;

  constructor(private readonly options: AppendThreadOptions) {}

  /**
   * A tick of the group commit in one turn to write and one message: `written` answers the ids
   * of the answers appended to, as soon as the appends have committed; `tidied` what the fold,
   * sweep and index steps that follow them did.
   */
  tick(task: ThreadTick): { written: Promise<number[]>; tidied: Promise<ThreadTidy> } {
    const { gate } = this.options;
    const turn = gate && !this.closed ? gate.acquire() : undefined;
    const posted = (turn ?? Promise.resolve()).then(() => {
      if (this.closed) throw new Error('the answers writer thread is closed');
      const worker = this.running();
      const [id, tidyId] = [this.nextId++, this.nextId++];
      const replies = {
        written: this.expect<number[]>(worker, id),
        tidied: this.expect<ThreadTidy>(worker, tidyId),
      };
      worker.postMessage({ id, tidyId, op: 'tick', ...task });
      return replies;
    });
    const tidied = posted.then((replies) => replies.tidied);
    // The turn is held until the last step is done, or the tick has failed.
    if (turn && gate)
      void turn.then(
        () =>
          tidied.then(
            () => gate.release(),
            () => gate.release(),
          ),
        () => undefined,
      );
    return { written: posted.then((replies) => replies.written), tidied };
  }

  /**
   * The reply `id` of `worker`: failed with the thread, or once it has taken `writeTimeoutMs`
   * counted from when the thread was ready.
   */
  private expect<T>(worker: Worker, id: number): Promise<T> {
    const started = this.started;
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiting = { resolve: resolve as (value: never) => void, reject };
      this.waiting.set(id, waiter);
      void started.then(() => {
        if (this.waiting.get(id) !== waiter) return;
        waiter.timer = setTimeout(() => {
          this.fail(
            worker,
            new Error(`the answers writer thread took over ${this.options.writeTimeoutMs} ms`),
          );
        }, this.options.writeTimeoutMs);
      });
    });
  }

  /** Closes the thread's connection after the writes under way; waits for it at most a write's bound. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exit = once(worker, 'exit').catch(() => undefined);
    worker.postMessage({ op: 'close' });
    // A thread inside a statement cannot be ended from outside (`threadStopFlag`): it closes once the
    // statement returns; past the bound it is left to (it holds no reference to the process).
    let late: NodeJS.Timeout | undefined;
    await Promise.race([
      exit,
      new Promise((resolve) => (late = setTimeout(resolve, this.options.writeTimeoutMs))),
    ]);
    clearTimeout(late);
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const retired = threadStopFlag();
    const worker = new Worker(workerFile, {
      workerData: {
        file: this.options.file,
        busyTimeoutMs: this.options.busyTimeoutMs,
        retired,
      },
    });
    this.retired = retired;
    worker.unref();
    let ready: () => void = () => undefined;
    this.started = new Promise<void>((resolve) => (ready = resolve));
    const startupMs = Math.max(this.options.startupMs ?? STARTUP_MS, this.options.writeTimeoutMs);
    this.startup = setTimeout(() => {
      this.fail(worker, new Error(`the answers writer thread did not start in ${startupMs} ms`));
    }, startupMs);
    worker.on('message', (reply: Reply) => {
      // A thread let go (`fail`) may still answer once its statement returns: not heard.
      if (this.worker !== worker) return;
      if ('ready' in reply) {
        clearTimeout(this.startup);
        ready();
        return;
      }
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      clearTimeout(waiter.timer);
      if ('error' in reply) waiter.reject(errorFromThread(reply.error));
      else waiter.resolve(('tidy' in reply ? reply.tidy : reply.ids) as never);
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
    clearTimeout(this.startup);
    // Let go by its stop flag (`threadStopFlag`: a SQLite thread is never terminated): it takes
    // no more of the ticks queued to it (their writes go again on the next thread) and closes
    // once its statement is done.
    if (this.retired) stopThread(this.retired);
    worker.postMessage({ op: 'close' });
    for (const waiter of this.waiting.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiting.clear();
  }
}
