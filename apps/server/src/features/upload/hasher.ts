import { randomUUID } from 'node:crypto';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

/**
 * MD5 and SHA-256 run on two threads (hash.worker.mjs), so on a machine with two cores a chunk's
 * two hashes cost about the time of the slower one, not of both.
 *
 * After every fold each thread answers its saved state, which the upload engine keeps in the
 * database. hash-wasm's states can be loaded anywhere, so any instance continues an upload's
 * hashes from where another left them without reading the bytes again. Node's own SHA-256 is
 * five times faster than hash-wasm's but its state cannot leave the process: with
 * `portableSha256` off (one instance, SQLite) the SHA-256 is node's and its "state" a handle to a
 * copy kept in the thread, which another process cannot load (it then hashes the file again).
 *
 * The worker sits next to this module in the sources and next to the bundle in dist (build.mjs
 * puts it there), so one relative address finds it in both.
 */
const workerFile = new URL('./hash.worker.mjs', import.meta.url);

/** The saved states (base64) of an upload's MD5 and SHA-256 (see `Hasher`). */
export interface HashStates {
  md5: string;
  sha256: string;
}

/** One fold on its way through the threads. */
export interface Folding {
  /** Settles once the MD5 thread is done with the pieces. Never rejects. */
  md5Done: Promise<void>;
  /** Both states after the pieces; rejects when a thread could not continue the key. */
  states: Promise<HashStates>;
}

interface Reply {
  id: number;
  error?: string;
  state?: string;
  digest?: string;
  /** The buffers of a fold handed over with `fold(…, giveBack)`, back from the SHA-256 thread. */
  returned?: ArrayBuffer[];
}

/** Keys whose state a thread keeps (a few bytes each) for folds sent before the last is answered. */
const maxKeys = 1024;

type Waiter = { resolve: (reply: Reply) => void; reject: (error: Error) => void };

/** Replies of one thread matched to requests by id. */
class Pending {
  private readonly waiters = new Map<number, Waiter>();

  constructor(private readonly name: string) {}

  wait(id: number): Promise<Reply> {
    return new Promise((resolve, reject) => this.waiters.set(id, { resolve, reject }));
  }

  settle(reply: Reply): void {
    const waiter = this.waiters.get(reply.id);
    this.waiters.delete(reply.id);
    if (!waiter) return;
    if (reply.error) waiter.reject(new Error(`${this.name} worker: ${reply.error}`));
    else waiter.resolve(reply);
  }

  failAll(error: Error): void {
    for (const waiter of this.waiters.values()) waiter.reject(error);
    this.waiters.clear();
  }
}

interface Threads {
  md5: Worker;
  sha: Worker;
}

function stateOf(reply: Reply, name: string): string {
  if (reply.state === undefined) throw new Error(`${name} worker answered no state`);
  return reply.state;
}

/**
 * Hashes upload bytes on two worker threads (MD5, then SHA-256 on the same bytes handed over
 * without a copy), so a 1 GiB upload's hashes never block the event loop and run while the chunk
 * is being written and the next one is arriving. Every fold answers both saved states.
 */
export class Hasher {
  /**
   * Whether the SHA-256 states can be loaded by another process (hash-wasm's), or stay in this one
   * (node's, five times faster: for a single instance).
   */
  constructor(private readonly portableSha256 = true) {}

  /** What every SHA-256 state this process saves starts with, when they are node's. */
  private readonly handlePrefix = `node-sha256:${randomUUID()}:`;
  private threads: Threads | undefined;
  private nextId = 1;
  private readonly md5Replies = new Pending('md5');
  private readonly shaReplies = new Pending('sha256');

  private start(): Threads {
    if (this.threads) return this.threads;
    const { port1, port2 } = new MessageChannel();
    const sha = new Worker(workerFile, {
      workerData: {
        algorithm: this.portableSha256 ? 'sha256' : 'node-sha256',
        maxKeys,
        inbound: port2,
        handlePrefix: this.handlePrefix,
      },
      transferList: [port2 as MessagePort],
    });
    const md5 = new Worker(workerFile, {
      workerData: { algorithm: 'md5', maxKeys, next: port1 },
      transferList: [port1 as MessagePort],
    });
    const threads = { md5, sha };
    const fail = (error: Error) => {
      if (this.threads === threads) {
        this.threads = undefined;
        void md5.terminate();
        void sha.terminate();
      }
      this.md5Replies.failAll(error);
      this.shaReplies.failAll(error);
    };
    for (const [worker, replies] of [
      [md5, this.md5Replies],
      [sha, this.shaReplies],
    ] as const) {
      worker.unref();
      worker.on('message', (reply: Reply) => replies.settle(reply));
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`hash worker exited with ${code}`)));
    }
    this.threads = threads;
    return threads;
  }

  /**
   * Folds `pieces`, which start at byte `from`, into both hashes of `key`: from the `start`
   * states when given (none at byte 0 means empty hashes), otherwise from where the threads left
   * the key. The next fold of the key may be sent at once.
   *
   * The pieces are copied when this is called, and the caller may reuse them at once; unless
   * `giveBack` is given: then the buffers under the pieces (whole ArrayBuffers of their own) are
   * handed to the hash threads without a copy, unusable here until `giveBack` receives them back
   * once both hashes are done. A fresh 5 MiB copy per chunk costs more than hashing it in memory
   * that has never been touched (every page faults in), so the chunk path hands its buffer over.
   */
  fold(
    key: string,
    from: number,
    start: HashStates | undefined,
    pieces: readonly Buffer[],
    giveBack?: (buffers: ArrayBuffer[]) => void,
  ): Folding {
    const { md5 } = this.start();
    const id = this.nextId++;
    const views = pieces.map(
      (piece) => new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength),
    );
    const md5Reply = this.md5Replies.wait(id);
    const shaReply = this.shaReplies.wait(id).then((reply) => {
      if (giveBack && reply.returned) giveBack(reply.returned);
      return reply;
    });
    const message = {
      op: 'fold',
      id,
      key,
      from,
      start: start?.md5,
      nextStart: start?.sha256,
      pieces: views,
      giveBack: giveBack !== undefined,
    };
    if (giveBack) {
      md5.postMessage(message, [...new Set(views.map((view) => view.buffer as ArrayBuffer))]);
    } else {
      md5.postMessage(message);
    }
    const states = Promise.all([md5Reply, shaReply]).then(([m, s]) => ({
      md5: stateOf(m, 'md5'),
      sha256: stateOf(s, 'sha256'),
    }));
    // A caller that gives a fold up (its chunk was not stored) need not wait for its states.
    states.catch(() => undefined);
    return {
      md5Done: md5Reply.then(
        () => undefined,
        () => undefined,
      ),
      states,
    };
  }

  /** Whether this process can continue from these states (node's SHA-256 only the ones it saved). */
  canLoad(states: HashStates): boolean {
    if (this.portableSha256) return true;
    return Buffer.from(states.sha256, 'base64').toString().startsWith(this.handlePrefix);
  }

  /** The MD5 and SHA-256 (hex) of the bytes `states` cover; no states: of no bytes. */
  async digest(states: HashStates | undefined): Promise<{ md5: string; sha256: string }> {
    const { md5, sha } = this.start();
    const md5Id = this.nextId++;
    const shaId = this.nextId++;
    const md5Reply = this.md5Replies.wait(md5Id);
    const shaReply = this.shaReplies.wait(shaId);
    md5.postMessage({ op: 'digest', id: md5Id, state: states?.md5 });
    sha.postMessage({ op: 'digest', id: shaId, state: states?.sha256 });
    const [m, s] = await Promise.all([md5Reply, shaReply]);
    if (typeof m.digest !== 'string' || typeof s.digest !== 'string')
      throw new Error('hash worker answered no digest');
    return { md5: m.digest, sha256: s.digest };
  }

  /** Forgets what the threads keep for a key (after the folds already sent for it). */
  async drop(key: string): Promise<void> {
    if (!this.threads) return;
    const id = this.nextId++;
    const md5Reply = this.md5Replies.wait(id);
    const shaReply = this.shaReplies.wait(id);
    this.threads.md5.postMessage({ op: 'drop', id, key });
    await Promise.all([md5Reply, shaReply]);
  }

  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = undefined;
    if (threads) await Promise.all([threads.md5.terminate(), threads.sha.terminate()]);
  }
}
