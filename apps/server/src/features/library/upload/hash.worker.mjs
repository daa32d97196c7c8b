// @ts-check
// The MD5 thread of `Hasher` (hasher.ts). Plain JavaScript, checked by the compiler (checkJs) and
// lint, so it runs unchanged from the sources (tests, tsx) and next to the bundle (dist).
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { createMD5 } from 'hash-wasm';

/**
 * @typedef {object} HashState
 * @property {() => void} init
 * @property {(data: Uint8Array) => void} update
 * @property {() => Uint8Array} save
 * @property {(state: Uint8Array) => void} load
 * @property {(encoding: 'hex') => string} digest
 *
 * @typedef {object} Message
 * @property {'fold' | 'digest' | 'drop'} op
 * @property {number} id
 * @property {string} [key]
 * @property {number} [from]
 * @property {string} [start] the saved state to start from (base64), instead of the held one
 * @property {string} [state]
 * @property {Uint8Array[]} [pieces]
 * @property {boolean} [giveBack]
 *
 * @typedef {object} Settings
 * @property {'md5' | 'node-md5'} algorithm
 * @property {number} maxKeys
 * @property {string} [handlePrefix] what node's MD5 handles start with
 */

/** @type {Settings} */
const settings = workerData;
const port = parentPort;
if (!port) throw new Error('hash.worker.mjs runs as a worker thread');

/**
 * Node's MD5 behind hash-wasm's interface: `save` keeps a copy in the thread under a handle
 * unique to this process, and `load` finds it again (or fails, in any other process).
 * @returns {Promise<HashState>}
 */
async function nodeMD5() {
  /** @type {Map<string, import('node:crypto').Hash>} */
  const copies = new Map();
  let serial = 0;
  let hash = createHash('md5');
  return {
    init() {
      hash = createHash('md5');
    },
    update(data) {
      hash.update(data);
    },
    save() {
      const handle = `${settings.handlePrefix ?? ''}${++serial}`;
      copies.set(handle, hash.copy());
      if (copies.size > settings.maxKeys) copies.delete(copies.keys().next().value ?? '');
      return Buffer.from(handle);
    },
    load(state) {
      const copy = copies.get(Buffer.from(state).toString());
      if (!copy) throw new Error('this MD5 state was saved by another process');
      hash = copy.copy();
    },
    digest() {
      return hash.digest('hex');
    },
  };
}

/** @type {Map<string, { at: number; state: Uint8Array }>} */
const keys = new Map();
/** @type {HashState | undefined} */
let hash;
let queue = (settings.algorithm === 'node-md5' ? nodeMD5() : createMD5()).then((instance) => {
  hash = instance;
});

/** @param {string} key @param {number} at @param {Uint8Array} state */
function remember(key, at, state) {
  keys.set(key, { at, state });
  if (keys.size > settings.maxKeys) keys.delete(keys.keys().next().value ?? '');
}

/**
 * Each key's state and the byte offset it stands at are kept, so a caller may send the next fold
 * before the previous one is answered: messages are taken in order. A fold that neither brings a
 * state nor starts where its key stands fails.
 * @param {Message} msg
 * @returns {{ state?: string; digest?: string }}
 */
function handle(msg) {
  if (!hash) throw new Error('the hash is not ready');
  const key = msg.key ?? '';
  if (msg.op === 'fold') {
    const held = keys.get(key);
    // Taken out first: a fold that fails half-way leaves its key unknown, never wrong.
    keys.delete(key);
    if (msg.start) hash.load(Buffer.from(msg.start, 'base64'));
    else if (msg.from === 0) hash.init();
    else if (held && held.at === msg.from) hash.load(held.state);
    else throw new Error(`no hash state for ${key} at byte ${msg.from}`);
    let at = msg.from ?? 0;
    for (const piece of msg.pieces ?? []) {
      hash.update(piece);
      at += piece.byteLength;
    }
    const state = hash.save();
    remember(key, at, state);
    return { state: Buffer.from(state).toString('base64') };
  }
  if (msg.op === 'digest') {
    if (msg.state) hash.load(Buffer.from(msg.state, 'base64'));
    else hash.init();
    return { digest: hash.digest('hex') };
  }
  keys.delete(key);
  return {};
}

/** @param {Message} msg */
function reply(msg) {
  /** @type {{ id: number; error?: string; state?: string; digest?: string; returned?: ArrayBuffer[] }} */
  let answer;
  try {
    answer = { id: msg.id, ...handle(msg) };
  } catch (error) {
    answer = { id: msg.id, error: String((error instanceof Error && error.stack) || error) };
  }
  if (msg.giveBack && msg.pieces) {
    // The caller handed its buffers over and wants them back for the next chunk.
    const buffers = [
      ...new Set(msg.pieces.map((piece) => /** @type {ArrayBuffer} */ (piece.buffer))),
    ];
    answer.returned = buffers;
    port?.postMessage(answer, buffers);
    return;
  }
  port?.postMessage(answer);
}

port.on('message', (/** @type {Message} */ msg) => {
  queue = queue.then(() => reply(msg));
});
