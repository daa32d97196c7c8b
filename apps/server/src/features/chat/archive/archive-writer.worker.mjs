// @ts-check
// The thread that writes an import's conversations and messages on SQLite for `ArchiveWriter`
// (archive-writer.ts). Plain JavaScript, checked by the compiler (checkJs) and lint, so it runs
// unchanged from the sources (tests, tsx) and next to the bundle (dist). It opens its own
// connection to the database file (opened as the instance's, db/sqlite-connection.mjs): the full-text index's
// triggers (FTS5 merging its segments inside an insert, 50-400 ms a statement) then run here,
// not on the event loop that serves other members. Each transaction is short (TX_ROWS rows or
// TX_MS), so a writer of the instance waiting on SQLite's write lock waits little; the
// instance's reads are never blocked in WAL.
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, threadError, threadStopped } from '../../../db/sqlite-connection.mjs';
import {
  conversationColumns,
  conversationValues,
  insertSql,
  messageColumns,
  messageValues,
} from './import-rows.mjs';
import { ImportCursor } from './import-cursor.mjs';

const port = parentPort;
if (!port) throw new Error('archive-writer.worker.mjs runs as a worker thread');

/**
 * @typedef {object} Options
 * @property {string} file The database file.
 * @property {number} busyTimeoutMs How long a transaction waits for the write lock.
 * @property {number} memberId The importing member (the conversations' owner and the job row's).
 * @property {string} instanceId The instance holding the member's job row.
 * @property {number} txRows Rows a transaction writes at most.
 * @property {number} txMs Milliseconds a transaction writes at most (it ends after the row).
 * @property {number} pauseMs Milliseconds between transactions, for the instance's writers.
 * @property {Int32Array} retired Set by the instance to stop the import between transactions.
 */
const options = /** @type {Options} */ (workerData);

/** @typedef {import('./import-rows.mjs').ImportedConversation} Conversation */
/** @typedef {import('./import-rows.mjs').ImportedMessage} Row */

const db = openSqlite(options.file, options.busyTimeoutMs);

const insertConversation = db.prepare(insertSql('chat_conversations', conversationColumns));
const insertMessage = db.prepare(insertSql('chat_messages', messageColumns));
const setLeaf = db.prepare('update chat_conversations set leaf_id = ? where id = ?');
const record = db.prepare(
  'update chat_archive_jobs set conversation_ids = ? where member_id = ? and instance_id = ?',
);

/** Every conversation written so far, in the job row with the rows (undone if the import dies). */
const written = /** @type {number[]} */ ([]);

/**
 * Writes one batch of whole conversations in short transactions; answers the conversations'
 * ids, the messages written, and the messages whose images the instance holds.
 * @param {Conversation[]} batch
 */
async function writeBatch(batch) {
  const ids = /** @type {number[]} */ ([]);
  const holds = /** @type {[number, string][]} */ ([]);
  let count = 0;
  const cursor = new ImportCursor(batch);
  let idOf = new Map();
  const step = db.transaction(() => {
    const started = performance.now();
    let rows = 0;
    const hasRoom = () => rows < options.txRows && performance.now() - started < options.txMs;
    while (!cursor.done && hasRoom()) {
      const c = /** @type {Conversation} */ (cursor.current);
      if (cursor.needsRow) {
        const { lastInsertRowid } = insertConversation.run(conversationValues(c, options.memberId));
        ids.push(Number(lastInsertRowid));
        written.push(Number(lastInsertRowid));
        idOf = new Map();
        cursor.rowWritten();
        rows++;
      }
      const conversationId = /** @type {number} */ (ids.at(-1));
      for (let m = cursor.message; m && hasRoom(); m = cursor.message) {
        const parentId = m.parentId === null ? null : (idOf.get(m.parentId) ?? null);
        const { lastInsertRowid } = insertMessage.run(messageValues(conversationId, parentId, m));
        const id = Number(lastInsertRowid);
        idOf.set(m.id, id);
        if (m.holds) holds.push([id, m.images]);
        cursor.messageWritten();
        rows++;
        count++;
      }
      if (cursor.message) break;
      if (c.leafId !== null) setLeaf.run(idOf.get(c.leafId) ?? null, conversationId);
      cursor.conversationWritten();
    }
    record.run(JSON.stringify(written), options.memberId, options.instanceId);
  });
  while (!cursor.done) {
    if (threadStopped(options.retired)) throw new Error('the import was stopped');
    // Immediate: the write lock is taken (or waited for) at the start, never mid-way.
    step.immediate();
    if (options.pauseMs > 0) await sleep(options.pauseMs);
  }
  return { ids, messages: count, holds };
}

// Batches are written one after another, in the order they come; none after one failed.
let queue = Promise.resolve();
let failed = false;
port.on('message', (/** @type {{ batch?: Conversation[] }} */ { batch }) => {
  queue = queue.then(async () => {
    if (!batch) {
      db.close();
      port.close();
      return;
    }
    if (failed || threadStopped(options.retired)) return;
    try {
      port.postMessage({ done: await writeBatch(batch) });
    } catch (error) {
      failed = true;
      port.postMessage({ error: threadError(error) });
    }
  });
});
