// @ts-check
// The thread that runs the group commit's statements on SQLite for `AppendThread`
// (append-thread.ts). better-sqlite3 runs a statement synchronously: on the instance's own
// connection, each tick's write of a thousand answers stopped every stream and every other call
// for its length. Here it runs on a connection of its own (opened as the instance's,
// db/sqlite-connection.mjs); the instance's reads are never blocked in WAL, and its writers wait
// for the lock at most one statement. Plain JavaScript, checked by the compiler (checkJs) and
// lint, so it runs unchanged from the sources (tests, tsx) and next to the bundle (dist).
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, threadError, threadStopped } from '../../../db/sqlite-connection.mjs';
import { appendSql, foldSql, liveSql, sweepSql } from './append-sql.mjs';
import { ftsQueueSql } from './fts-queue-sql.mjs';

if (!parentPort) throw new Error('append.worker.mjs runs as a worker thread');
const port = parentPort;

/** @type {{ file: string, busyTimeoutMs: number, retired: Int32Array }} */
const options = workerData;

const db = openSqlite(options.file, options.busyTimeoutMs);
const append = db.prepare(appendSql(false, false));
const appendAgain = db.prepare(appendSql(false, true));
const live = db.prepare(liveSql(false));
const foldStatement = foldSql(false);
const foldUpdate = db.prepare(foldStatement.text);

/** @param {unknown[]} rows */
const idsOf = (rows) => rows.map((row) => Number(/** @type {{ id: number }} */ (row).id));

/** A write tried again: appends what is not stored yet, and reads which answers are live. */
const tryAgain = db.transaction((/** @type {string} */ rows, /** @type {string} */ writer) => {
  appendAgain.run(rows, writer);
  return idsOf(live.all(rows, writer));
});

const fold = db.transaction(
  (/** @type {string} */ rows, /** @type {string} */ writer, /** @type {number} */ now) => {
    foldUpdate.run(...foldStatement.bind(rows, writer, now));
  },
);

const sweepStatements = /** @type {{ bound: string, clear: string }} */ (sweepSql(false));
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

/** @param {string} rows @param {string} writer @param {boolean} again */
const appendRows = (rows, writer, again) =>
  again ? tryAgain(rows, writer) : idsOf(append.all(rows, writer));

/**
 * @template T
 * @param {() => T} step
 * @returns {{ value: T } | { error: ReturnType<typeof threadError> }}
 */
function attempt(step) {
  try {
    return { value: step() };
  } catch (error) {
    return { error: threadError(error) };
  }
}

/**
 * A tick of the group commit: its appends (answered at once, so that they are published while
 * the rest runs), then, if they went through, the fold, the sweep's step and the index's step,
 * each answered for itself; none of them waits for the event loop to hear of the one before.
 * @param {TickTask} task
 */
function tick(task) {
  /** @type {number[]} */
  let ids;
  try {
    ids = task.rows.flatMap((rows) => appendRows(rows, task.writer, task.again));
  } catch (error) {
    port.postMessage({ id: task.id, error: threadError(error) });
    port.postMessage({ id: task.tidyId, tidy: {} });
    return;
  }
  port.postMessage({ id: task.id, ids });
  const { folds, writer, now, sweep: step, index: indexLimit } = task;
  port.postMessage({
    id: task.tidyId,
    tidy: {
      ...(folds.length > 0
        ? { fold: attempt(() => folds.forEach((rows) => fold(rows, writer, now))) }
        : {}),
      ...(step ? { sweep: attempt(() => sweep(step.after, step.limit)[0] ?? null) } : {}),
      ...(indexLimit !== null ? { index: attempt(() => index(indexLimit)) } : {}),
    },
  });
}

/**
 * @typedef {{ id: number, tidyId: number, op: 'tick', rows: string[], writer: string,
 *   again: boolean, folds: string[], now: number, sweep: { after: number, limit: number } | null,
 *   index: number | null }} TickTask
 * @typedef {TickTask | { op: 'close' }} Task
 */
// Ready: a write's time is counted from here, not from the thread's start.
port.postMessage({ ready: true });

port.on('message', (/** @type {Task} */ task) => {
  // Let go by the instance (`AppendThread.fail`): the ticks still queued here went to another.
  if (task.op === 'close' || threadStopped(options.retired)) {
    db.close();
    port.close();
    return;
  }
  tick(task);
});
