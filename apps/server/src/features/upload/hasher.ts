import { createRequire } from 'node:module';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

/**
 * The workers' code, plain JavaScript so it runs the same from the TypeScript sources (tests) and
 * from the bundle. MD5 and SHA-256 run on two threads, so on a machine with two cores a chunk's
 * two hashes cost about the time of the slower one (MD5), not of both.
 *
 * The MD5 thread keeps one hash-wasm MD5 and no state of its own: the state travels with each
 * request and back, so the database copy stays the truth and any instance continues it. After
 * folding a chunk it hands the bytes on to the SHA-256 thread through a port, by transfer, so a
 * chunk is copied once on its way to both hashes.
 *
 * The SHA-256 thread keeps, per key, a running SHA-256 with the byte offset it reached (node's
 * SHA-256 cannot be saved); a fold that does not start where the key stands drops the key.
 */
const md5Source = `
const { parentPort, workerData } = require('node:worker_threads');
const { createMD5 } = require(workerData.hashWasm);
const toSha = workerData.toSha;
let md5;
let queue = createMD5().then((instance) => { md5 = instance; });
function handle(msg) {
  if (msg.state) md5.load(Buffer.from(msg.state, 'base64')); else md5.init();
  if (msg.op === 'fold') {
    for (const piece of msg.pieces) md5.update(piece);
    return { state: Buffer.from(md5.save()).toString('base64') };
  }
  return { digest: md5.digest('hex') };
}
parentPort.on('message', (msg) => {
  queue = queue.then(() => {
    try {
      parentPort.postMessage({ id: msg.id, ...handle(msg) });
    } catch (error) {
      parentPort.postMessage({ id: msg.id, error: String(error && error.stack || error) });
    }
    if (msg.op === 'fold') {
      const buffers = [...new Set(msg.pieces.map((piece) => piece.buffer))];
      toSha.postMessage({ op: 'fold', id: msg.id, key: msg.key, from: msg.from, pieces: msg.pieces, giveBack: msg.giveBack }, buffers);
    }
  });
});
`;

const shaSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const shas = new Map();
function handle(msg) {
  if (msg.op === 'fold') {
    const sha = msg.from === 0 ? { at: 0, hash: createHash('sha256') } : shas.get(msg.key);
    shas.delete(msg.key);
    if (!sha || sha.at !== msg.from) return {};
    for (const piece of msg.pieces) {
      sha.hash.update(piece);
      sha.at += piece.byteLength;
    }
    shas.set(msg.key, sha);
    if (shas.size > workerData.maxShas) shas.delete(shas.keys().next().value);
    return {};
  }
  const sha = shas.get(msg.key);
  shas.delete(msg.key);
  return { digest: msg.op === 'digest' && sha && sha.at === msg.at ? sha.hash.digest('hex') : null };
}
function reply(msg) {
  try {
    const answer = { id: msg.id, ...handle(msg) };
    if (msg.giveBack) {
      // The caller handed its buffers over and wants them back for the next chunk.
      answer.returned = [...new Set(msg.pieces.map((piece) => piece.buffer))];
      parentPort.postMessage(answer, answer.returned);
      return;
    }
    parentPort.postMessage(answer);
  } catch (error) {
    // A key whose fold failed half-way is wrong from here on: forget it (its digest is then null).
    shas.delete(msg.key);
    parentPort.postMessage({ id: msg.id, error: String(error && error.stack || error) });
  }
}
parentPort.on('message', reply);
workerData.fromMd5.on('message', reply);
`;

interface Reply {
  id: number;
  error?: string;
  state?: string;
  digest?: string | null;
  /** The buffers of a fold handed over with `fold(…, giveBack)`, back from the SHA-256 thread. */
  returned?: ArrayBuffer[];
}

/** Running SHA-256 states kept (they cannot be saved like hash-wasm's MD5). */
const maxShas = 256;

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

/**
 * Hashes upload bytes on two worker threads (MD5, then SHA-256 on the same bytes handed over
 * without a copy), so a 1 GiB upload's hashes never block the event loop and run while the chunk
 * is being written and the next one is arriving. The MD5 state is handed back after every fold
 * (kept in the database, any instance continues it); the SHA-256 stays in its thread keyed by
 * session and byte offset, and a caller that finds it missing re-reads the bytes.
 */
export class Hasher {
  private threads: Threads | undefined;
  private nextId = 1;
  private readonly md5Replies = new Pending('md5');
  private readonly shaReplies = new Pending('sha256');
  /** Per key, the SHA-256 fold still running behind the MD5 ones (settles, never rejects). */
  private readonly shaBehind = new Map<string, Promise<void>>();

  private start(): Threads {
    if (this.threads) return this.threads;
    const hashWasm = createRequire(import.meta.url).resolve('hash-wasm');
    const { port1, port2 } = new MessageChannel();
    const sha = new Worker(shaSource, {
      eval: true,
      workerData: { maxShas, fromMd5: port2 },
      transferList: [port2 as MessagePort],
    });
    const md5 = new Worker(md5Source, {
      eval: true,
      workerData: { hashWasm, toSha: port1 },
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
   * Folds `pieces`, which start at byte `from`, into the MD5 continuing from `state` (null at the
   * start) and into this key's SHA-256 if it stands at `from`. Answers the new MD5 state as soon as
   * the MD5 thread has it: the SHA-256 fold runs on behind it, so the next MD5 fold need not wait
   * (`digest` and `drop` do).
   *
   * The pieces are copied when this is called, and the caller may reuse them at once; unless
   * `giveBack` is given: then the buffers under the pieces (whole ArrayBuffers of their own) are
   * handed to the hash threads without a copy, unusable here until `giveBack` receives them back
   * once both hashes are done. A fresh 5 MiB copy per chunk costs more than hashing it in memory
   * that has never been touched (every page faults in), so the chunk path hands its buffer over.
   */
  async fold(
    key: string,
    from: number,
    state: string | null,
    pieces: readonly Buffer[],
    giveBack?: (buffers: ArrayBuffer[]) => void,
  ): Promise<string> {
    const { md5 } = this.start();
    const id = this.nextId++;
    const views = pieces.map(
      (piece) => new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength),
    );
    const md5Reply = this.md5Replies.wait(id);
    // A failed SHA-256 fold has made its thread forget the key; the digest then re-reads the bytes.
    const shaDone = this.shaReplies.wait(id).then(
      (reply) => {
        if (giveBack && reply.returned) giveBack(reply.returned);
      },
      () => undefined,
    );
    this.shaBehind.set(key, shaDone);
    void shaDone.then(() => {
      if (this.shaBehind.get(key) === shaDone) this.shaBehind.delete(key);
    });
    if (giveBack) {
      const buffers = [...new Set(views.map((view) => view.buffer as ArrayBuffer))];
      md5.postMessage({ op: 'fold', id, key, from, state, pieces: views, giveBack: true }, buffers);
    } else {
      md5.postMessage({ op: 'fold', id, key, from, state, pieces: views });
    }
    const reply = await md5Reply;
    if (reply.state === undefined) throw new Error('md5 worker answered no state');
    return reply.state;
  }

  /** The MD5 of `state`, and this key's SHA-256 if it stands at byte `at` (it is then dropped). */
  async digest(
    key: string,
    at: number,
    state: string | null,
  ): Promise<{ md5: string; sha256: string | undefined }> {
    const { md5, sha } = this.start();
    const id = this.nextId++;
    const md5Reply = this.md5Replies.wait(id);
    md5.postMessage({ op: 'digest', id, state });
    // The key's folds reach the SHA-256 thread through the MD5 thread: wait until they are in.
    await this.shaBehind.get(key);
    const shaReply = this.shaReplies.wait(id);
    sha.postMessage({ op: 'digest', id, key, at });
    const [md5Digest, shaDigest] = await Promise.all([md5Reply, shaReply]);
    if (typeof md5Digest.digest !== 'string') throw new Error('md5 worker answered no digest');
    return { md5: md5Digest.digest, sha256: shaDigest.digest ?? undefined };
  }

  /** Forgets a key's SHA-256. */
  async drop(key: string): Promise<void> {
    if (!this.threads) return;
    await this.shaBehind.get(key);
    const id = this.nextId++;
    const reply = this.shaReplies.wait(id);
    this.threads.sha.postMessage({ op: 'drop', id, key });
    await reply;
  }

  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = undefined;
    if (threads) await Promise.all([threads.md5.terminate(), threads.sha.terminate()]);
  }
}
