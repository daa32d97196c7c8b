// @ts-check
// The thread that reads the providers' streams for `ProviderThread` (chat-stream.ts). A thousand
// answers at 20 tokens/s are 20,000 socket reads a second, each parsed as HTTP, as SSE and as
// JSON: on the instance's event loop that work kept every stream's next token, and every other
// call, waiting (issue 32). Here it runs beside the loop, which hears each turn's chunks of every
// answer in one message. Plain JavaScript, checked by the compiler (checkJs) and lint, so it runs
// unchanged from the sources (tests, tsx) and next to the bundle (dist).
import { parentPort } from 'node:worker_threads';
import { readCompletionStream } from './provider-stream.mjs';

const port = parentPort;
if (!port) throw new Error('provider.worker.mjs runs as a worker thread');

/**
 * @typedef {import('./provider-stream.mjs').StreamFailure} StreamFailure
 * @typedef {{ op: 'start', id: number, url: string, headers: Record<string, string | number>,
 *   payload: string, timeoutMs: number } | { op: 'abort', id: number }} Request
 */

/** The streams being read, by the instance's id for each. @type {Map<number, AbortController>} */
const reading = new Map();
/** This turn's chunks, flat: id, text (or null), usage (or null), then the next. @type {unknown[]} */
let chunks = [];
/** This turn's ends, flat: id, how it failed (null: it ended well or was aborted). @type {unknown[]} */
let ends = [];
let queued = false;

/** Sends this turn's chunks and ends in one message, chunks first (an end follows its text). */
function send() {
  queued = false;
  if (chunks.length === 0 && ends.length === 0) return;
  port?.postMessage({ chunks, ends });
  chunks = [];
  ends = [];
}

function later() {
  if (queued) return;
  queued = true;
  setImmediate(send);
}

port.on('message', (/** @type {Request} */ request) => {
  if (request.op === 'abort') {
    reading.get(request.id)?.abort();
    return;
  }
  const { id } = request;
  const controller = new AbortController();
  reading.set(id, controller);
  void readCompletionStream({
    url: request.url,
    headers: request.headers,
    payload: request.payload,
    timeoutMs: request.timeoutMs,
    signal: controller.signal,
    onChunk: (content, usage) => {
      chunks.push(id, content, usage);
      later();
    },
  }).then((/** @type {StreamFailure | undefined} */ failure) => {
    reading.delete(id);
    ends.push(id, failure ?? null);
    later();
  });
});
