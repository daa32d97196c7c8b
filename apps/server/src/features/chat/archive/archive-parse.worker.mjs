// @ts-check
// The thread that reads an import file's JSON for `parseExport` (archive-parse.ts). Plain
// JavaScript, checked by the compiler (checkJs) and lint, so it runs unchanged from the sources
// (tests, tsx) and next to the bundle (dist). A 10 MB file is tens of milliseconds of parsing and
// a heap of its own: here neither holds up the event loop that serves other members. Only the
// parse happens here; every check stays with the contract on the instance, which takes the
// conversations one at a time (each a small copy, never the whole file at once).
import { parentPort } from 'node:worker_threads';

const port = parentPort;
if (!port) throw new Error('archive-parse.worker.mjs runs as a worker thread');

/**
 * @typedef {object} Request
 * @property {string} text The file's text.
 * @property {import('node:worker_threads').MessagePort} items Where each conversation is posted.
 */

port.on('message', (/** @type {Request} */ { text, items }) => {
  /** @type {unknown} */
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    port.postMessage({ notJson: error instanceof Error ? error.message : String(error) });
    return;
  }
  // Arrays and scalars are no export file: an empty head, which the instance refuses as such.
  const head =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? /** @type {Record<string, unknown>} */ (value)
      : {};
  const { conversations, ...rest } = head;
  const list = Array.isArray(conversations) ? conversations : undefined;
  // Every conversation is queued on `items` before the head is answered, so the instance finds
  // each one there as soon as it has the head.
  for (const item of list ?? []) items.postMessage(item);
  port.postMessage({ head: rest, count: list ? list.length : -1 });
});
