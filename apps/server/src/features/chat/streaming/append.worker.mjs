// @ts-check
// The thread that runs the group commit's statements on SQLite for `AppendThread`
// (append-thread.ts). better-sqlite3 runs a statement synchronously: on the instance's own
// connection, each tick's write of a thousand answers stopped every stream and every other call
// for its length. Here it runs on a connection of its own (opened as the instance's,
// db/sqlite-connection.mjs); the instance's reads are never blocked in WAL, and its writers wait
// for the lock at most one statement. Plain JavaScript, checked by the compiler (checkJs) and
// lint, so it runs unchanged from the sources (tests, tsx) and next to the bundle (dist).
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, threadError } from '../../../db/sqlite-connection.mjs';
import { appendSql, foldSql, liveSql, sweepSql } from './append-sql.mjs';
import { ftsQueueSql } from './fts-queue-sql.mjs';

const port = parentPort;
if (!port) throw new Error('append.worker.mjs runs as a worker thread');

/** @type {{ file: string, busyTimeoutMs: number }} */
const options = workerData;

const db = openSqlite(options.file, options.busyTimeoutMs);
const append = db.prepare(appendSql(false, false));
const appendAgain = db.prepare(appendSql(false, true));
const live = db.prepare(liveSql(false));
const foldStatements = foldSql(false).map(({ text, bind }) => ({
  statement: db.prepare(text),
  bind,
}));

/** @param {unknown[]} rows */
const idsOf = (rows) => rows.map((row) => Number(/** @type {{ id: number }} */ (row).id));

/** A write tried again: appends what is not stored yet, and reads which answers are live. */
const tryAgain = db.transaction((/** @type {string} */ rows, /** @type {string} */ writer) => {
  appendAgain.run(rows, writer);
  return idsOf(live.all(rows, writer));
});

const fold = db.transaction(
  (/** @type {string} */ rows, /** @type {string} */ writer, /** @type {number} */ now) => {
    for (const step of foldStatements) step.statement.run(...step.bind(rows, writer, now));
  },
);

const sweepStatements = sweepSql(false);
const sweepBound = db.prepare(sweepStatements.bound);
const sweepClear = db.prepare(sweepStatements.clear);
/** One step of the sweep: answers its last key, or none past the table's end. */
const sweep = db.transaction((/** @type {number} */ after, /** @type {number} */ limit) => {
  const { bound } = /** @type {{ bound: number | null }} */ (sweepBound.get(after, limit));
  if (bound === null) return [];
  sweepClear.run(after, bound);
  return [bound];
});

const indexQueued = db.prepare(ftsQueueSql.index);
const clearQueued = db.prepare(ftsQueueSql.clear);
/** One step of the search index's queue: answers how many messages it took off the queue. */
const index = db.transaction((/** @type {number} */ limit) => {
  indexQueued.run(limit);
  return clearQueued.run(limit).changes;
});

/**
 * @typedef {{ id: number, op: 'append', rows: string, writer: string, again: boolean }
 *   | { id: number, op: 'fold', rows: string, writer: string, now: number }
 *   | { id: number, op: 'sweep', after: number, limit: number }
 *   | { id: number, op: 'index', limit: number }
 *   | { op: 'close' }} Task
 */
port.on('message', (/** @type {Task} */ task) => {
  if (task.op === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    if (task.op === 'fold') {
      fold(task.rows, task.writer, task.now);
      port.postMessage({ id: task.id, ids: [] });
      return;
    }
    if (task.op === 'index') {
      port.postMessage({ id: task.id, ids: [index(task.limit)] });
      return;
    }
    if (task.op === 'sweep') {
      port.postMessage({ id: task.id, ids: sweep(task.after, task.limit) });
      return;
    }
    const ids = task.again
      ? tryAgain(task.rows, task.writer)
      : idsOf(append.all(task.rows, task.writer));
    port.postMessage({ id: task.id, ids });
  } catch (error) {
    port.postMessage({ id: task.id, error: threadError(error) });
  }
});
