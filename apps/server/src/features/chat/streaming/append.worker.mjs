// @ts-check
// The thread that runs the flush's append statement on SQLite for `AppendThread`
// (append-thread.ts). better-sqlite3 runs a statement synchronously: on the instance's own
// connection, each tick's write of a thousand answers stopped every stream and every other call
// for its length. Here it runs on a connection of its own (opened as the instance's, db/sqlite-connection.mjs);
// the instance's reads are never blocked in WAL, and its writers wait for the lock at most one
// statement. Plain JavaScript, checked by the compiler (checkJs) and lint, so it runs unchanged
// from the sources (tests, tsx) and next to the bundle (dist).
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, threadError } from '../../../db/sqlite-connection.mjs';
import { appendSql } from './append-sql.mjs';

const port = parentPort;
if (!port) throw new Error('append.worker.mjs runs as a worker thread');

/** @type {{ file: string, busyTimeoutMs: number }} */
const options = workerData;

const db = openSqlite(options.file, options.busyTimeoutMs);
const append = db.prepare(appendSql(false));

/**
 * @typedef {{ id: number, rows: string, writer: string, now: number }} Write
 * A write to run; a message without `rows` asks the thread to close its connection and end.
 */
port.on('message', (/** @type {Partial<Write>} */ message) => {
  if (message.rows === undefined) {
    db.close();
    port.close();
    return;
  }
  try {
    const changed = /** @type {{ id: number }[]} */ (
      append.all(message.now, message.rows, message.writer)
    );
    port.postMessage({ id: message.id, ids: changed.map((row) => Number(row.id)) });
  } catch (error) {
    port.postMessage({ id: message.id, error: threadError(error) });
  }
});
