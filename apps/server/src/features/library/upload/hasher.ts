import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * The upload's MD5 runs on a thread of its own (hash.worker.mjs), beside the event loop that
 * receives and writes the next chunk. It is the one hash on the upload path (README "Uploads":
 * blobs are told apart by MD5, size and a byte comparison, not by a second hash).
 *
 * After every fold the thread answers its saved state, which the upload engine keeps in the
 * database. hash-wasm's states can be loaded anywhere, so any instance continues an upload's MD5
 * from where another left it without reading the bytes again. Node's own MD5 (OpenSSL) is about
 * 15 % faster but its state cannot leave the process: with `portable` off (one instance, SQLite)
 * the MD5 is node's and its "state" a handle to a copy kept in the thread, which another process
 * cannot load (it then hashes the file again).
 *
 * The worker sits next to this module in the sources and next to the bundle in dist (build.mjs
 * puts it there), so one relative address finds it in both.
 */
const workerFile = new URL('./hash.worker.mjs', import.meta.url);

/** One fold on its way through the thread. */
export interface Folding {
  /** The saved MD5 state (base64) after the pieces; rejects when the thread could not continue. */
  state: Promise<string>;
}

interface Reply {
  id: number;
  error?: string;
  state?: string;
  digest?: string;
  /** The buffers of a fold handed over with `fold(…, giveBack)`. */
  returned?: ArrayBuffer[];
}

/** Keys whose state the thread keeps (a few bytes each) for folds sent before the last is answered. */
const maxKeys = 1024;

type Waiter = { resolve: (reply: Reply) => void; reject: (error: Error) => void };

/**
 * Hashes upload bytes on a worker thread, so a 1 GiB upload's MD5 never blocks the event loop and
 * runs while the chunk is being written and the next one is arriving.
 */
export class Hasher {
  /** What every state this process saves starts with, when they are node's. */
  private readonly handlePrefix = `node-md5:${randomUUID()}:`;
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiters = new Map<number, Waiter>();

  /**
   * Whether the states can be loaded by another process (hash-wasm's), or stay in this one
   * (node's, faster: for a single instance).
   */
  constructor(private readonly portable = true) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile, {
      workerData: {
        algorithm: this.portable ? 'md5' : 'node-md5',
        maxKeys,
        handlePrefix: this.handlePrefix,
      },
    });
    const fail = (error: Error) => {
      if (this.worker === worker) {
        this.worker = undefined;
        void worker.terminate();
      }
      for (const waiter of this.waiters.values()) waiter.reject(error);
      this.waiters.clear();
    };
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiters.get(reply.id);
      this.waiters.delete(reply.id);
      if (!waiter) return;
      if (reply.error) waiter.reject(new Error(`md5 worker: ${reply.error}`));
      else waiter.resolve(reply);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`hash worker exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  private send(message: object, transfer: ArrayBuffer[] = []): Promise<Reply> {
    const worker = this.start();
    const id = this.nextId++;
    const reply = new Promise<Reply>((resolve, reject) =>
      this.waiters.set(id, { resolve, reject }),
    );
    worker.postMessage({ ...message, id }, transfer);
    return reply;
  }

  /**
   * Folds `pieces`, which start at byte `from`, into the MD5 of `key`: from the `start` state
   * when given (none at byte 0 means an empty hash), otherwise from where the thread left the
   * key. The next fold of the key may be sent at once.
   *
   * The pieces are copied when this is called, and the caller may reuse them at once; unless
   * `giveBack` is given: then the buffers under the pieces (whole ArrayBuffers of their own) are
   * handed to the thread without a copy, unusable here until `giveBack` receives them back once
   * the hash is done. A fresh 5 MiB copy per chunk costs more than hashing it in memory that has
   * never been touched (every page faults in), so the chunk path hands its buffer over.
   */
  fold(
    key: string,
    from: number,
    start: string | undefined,
    pieces: readonly Buffer[],
    giveBack?: (buffers: ArrayBuffer[]) => void,
  ): Folding {
    const views = pieces.map(
      (piece) => new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength),
    );
    const message = { op: 'fold', key, from, start, pieces: views, giveBack: !!giveBack };
    const transfer = giveBack ? [...new Set(views.map((view) => view.buffer as ArrayBuffer))] : [];
    const state = this.send(message, transfer).then((reply) => {
      if (giveBack && reply.returned) giveBack(reply.returned);
      if (reply.state === undefined) throw new Error('md5 worker answered no state');
      return reply.state;
    });
    // A caller that gives a fold up (its chunk was not stored) need not wait for its state.
    state.catch(() => undefined);
    return { state };
  }

  /** Whether this process can continue from this state (node's only the ones it saved). */
  canLoad(state: string): boolean {
    if (this.portable) return true;
    return Buffer.from(state, 'base64').toString().startsWith(this.handlePrefix);
  }

  /** The MD5 (hex) of the bytes `state` covers; no state: of no bytes. */
  async digest(state: string | undefined): Promise<string> {
    const reply = await this.send({ op: 'digest', state });
    if (typeof reply.digest !== 'string') throw new Error('md5 worker answered no digest');
    return reply.digest;
  }

  /** Forgets what the thread keeps for a key (after the folds already sent for it). */
  async drop(key: string): Promise<void> {
    if (!this.worker) return;
    await this.send({ op: 'drop', key });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}
