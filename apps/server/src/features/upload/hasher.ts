import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code, plain JavaScript so it runs the same from the TypeScript sources (tests) and
 * from the bundle. It keeps one hash-wasm MD5 (its state travels with each request, so the
 * database copy stays the truth) and, per key, a running SHA-256 with the byte offset it reached.
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { createMD5 } = require(workerData.hashWasm);
const shas = new Map();
let md5;
let queue = createMD5().then((instance) => { md5 = instance; });
function handle(msg) {
  if (msg.op === 'fold') {
    if (msg.state) md5.load(Buffer.from(msg.state, 'base64')); else md5.init();
    let sha = msg.from === 0 ? { at: 0, hash: createHash('sha256') } : shas.get(msg.key);
    if (sha && sha.at !== msg.from) sha = undefined;
    let at = msg.from;
    for (const piece of msg.pieces) {
      md5.update(piece);
      if (sha) sha.hash.update(piece);
      at += piece.byteLength;
    }
    shas.delete(msg.key);
    if (sha) {
      sha.at = at;
      shas.set(msg.key, sha);
      if (shas.size > workerData.maxShas) shas.delete(shas.keys().next().value);
    }
    return { state: Buffer.from(md5.save()).toString('base64') };
  }
  if (msg.op === 'digest') {
    if (msg.state) md5.load(Buffer.from(msg.state, 'base64')); else md5.init();
    const sha = shas.get(msg.key);
    shas.delete(msg.key);
    return { md5: md5.digest('hex'), sha: sha && sha.at === msg.at ? sha.hash.digest('hex') : null };
  }
  shas.delete(msg.key);
  return {};
}
parentPort.on('message', (msg) => {
  queue = queue.then(() => {
    try {
      parentPort.postMessage({ id: msg.id, ...handle(msg) });
    } catch (error) {
      parentPort.postMessage({ id: msg.id, error: String(error && error.stack || error) });
    }
  });
});
`;

interface Reply {
  id: number;
  error?: string;
  state?: string;
  md5?: string;
  sha?: string | null;
}

/** Running SHA-256 states the worker keeps (they cannot be saved like hash-wasm's MD5). */
const maxShas = 256;

/**
 * Hashes upload bytes on a worker thread, so a 1 GiB upload's MD5 and SHA-256 never block the
 * event loop and run while the next chunk is still arriving. The MD5 state is handed back after
 * every fold (kept in the database, any instance continues it); the SHA-256 stays in the worker
 * keyed by session and byte offset, and a caller that finds it missing re-reads the bytes.
 */
export class Hasher {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();

  private start(): Worker {
    if (this.worker) return this.worker;
    const hashWasm = createRequire(import.meta.url).resolve('hash-wasm');
    const worker = new Worker(workerSource, { eval: true, workerData: { hashWasm, maxShas } });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (!waiter) return;
      if (reply.error) waiter.reject(new Error(`hash worker: ${reply.error}`));
      else waiter.resolve(reply);
    });
    const fail = (error: Error) => {
      this.worker = undefined;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`hash worker exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  private send(message: Record<string, unknown>): Promise<Reply> {
    const id = this.nextId++;
    const worker = this.start();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  /**
   * Folds `pieces`, which start at byte `from`, into the MD5 continuing from `state` (null at the
   * start) and into this key's SHA-256 if it stands at `from`. Answers the new MD5 state. The
   * pieces are copied to the worker when this is called: the caller may reuse them at once.
   */
  async fold(key: string, from: number, state: string | null, pieces: readonly Buffer[]): Promise<string> {
    const views = pieces.map((piece) => new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
    const reply = await this.send({ op: 'fold', key, from, state, pieces: views });
    if (reply.state === undefined) throw new Error('hash worker answered no state');
    return reply.state;
  }

  /** The MD5 of `state`, and this key's SHA-256 if it stands at byte `at` (it is then dropped). */
  async digest(key: string, at: number, state: string | null): Promise<{ md5: string; sha256: string | undefined }> {
    const reply = await this.send({ op: 'digest', key, at, state });
    if (reply.md5 === undefined) throw new Error('hash worker answered no digest');
    return { md5: reply.md5, sha256: reply.sha ?? undefined };
  }

  /** Forgets a key's SHA-256. */
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
