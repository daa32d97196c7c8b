// @ts-check
// A SQLite connection as every one of Atrium's is opened (the instance's in db/index.ts and the
// worker threads' own: the import's writer, the streamed answers' appends), how a thread's
// error travels back to the instance with SQLite's code, and how a thread is stopped. Plain
// JavaScript, checked by the compiler (checkJs), so the threads run it unchanged from the
// sources and next to the bundle.
import SQLite from 'better-sqlite3';

/**
 * Opens `file` in WAL mode (readers never wait for the writer) with foreign keys on, a busy
 * timeout (better-sqlite3 waits synchronously, so it is short) and synchronous=NORMAL.
 * @param {string} file
 * @param {number} busyTimeoutMs
 */
export function openSqlite(file, busyTimeoutMs) {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${String(busyTimeoutMs)}`);
  db.pragma('synchronous = NORMAL');
  return db;
}

/**
 * @typedef {{ message: string, name?: string, code?: string }} ThreadError
 * An error as a thread posts it: its text, and SQLite's code (SQLITE_FULL, SQLITE_BUSY…).
 */

/**
 * What an error tells the instance, posted by a thread.
 * @param {unknown} error
 * @returns {ThreadError}
 */
export function threadError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = /** @type {{ code?: unknown }} */ (error).code;
  return {
    message: error.message,
    name: error.name,
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/**
 * The error a thread's answer stands for, with SQLite's code (`outageOf` reads it).
 * @param {ThreadError} reply
 * @returns {Error & { code?: string }}
 */
export function errorFromThread(reply) {
  const error = /** @type {Error & { code?: string }} */ (new Error(reply.message));
  if (reply.name) error.name = reply.name;
  if (reply.code) error.code = reply.code;
  return error;
}

/**
 * A flag the instance raises to stop a SQLite thread, shared with it (`workerData`): the thread
 * reads it between its statements, takes no more of the work queued to it, and closes. A SQLite
 * thread is never `terminate()`d: one stuck inside SQLite (a busy wait, a slow disk) cannot be
 * ended from outside, and a statement that then fails in a terminating thread aborts the whole
 * process (better-sqlite3 builds the error's object where V8 no longer can: "FATAL ERROR:
 * v8::ToLocalChecked Empty MaybeLocal").
 * @returns {Int32Array}
 */
export const threadStopFlag = () => new Int32Array(new SharedArrayBuffer(4));

/** Raises the flag (`threadStopFlag`). @param {Int32Array} flag */
export const stopThread = (flag) => void Atomics.store(flag, 0, 1);

/** Whether the flag is raised (`threadStopFlag`). @param {Int32Array} flag */
export const threadStopped = (flag) => Atomics.load(flag, 0) === 1;
