import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { DatabaseConfig } from '../config';
import type { Db } from './index';

/**
 * Runs `work` (migrations, the secret verifier, the first admin) while no other process starting
 * on the same database runs it, so instances started together neither race to create the first
 * admin nor see half-migrated tables (DESIGN 2). The lock goes with the holder's connection or
 * file handle: a process that dies while holding it frees it.
 */
export function withStartupLock<T>(
  db: Db,
  database: DatabaseConfig,
  work: () => Promise<T>,
): Promise<T> {
  return database.kind === 'postgres'
    ? withAdvisoryLock(db, work)
    : withLockFile(database.file, work);
}

/** Our own class of advisory lock ("ATR1"), apart from Kysely's migration lock. */
const LOCK_CLASS = 0x41545231;

/**
 * A transaction-level advisory lock, held by one pooled connection while `work` runs on the
 * others. Keyed by the schema too, so deployments in different schemas of one database start
 * independently. Ending the transaction frees it, whatever `work` did.
 */
function withAdvisoryLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(LOCK_CLASS)}, hashtext(current_schema()))`.execute(
      trx,
    );
    return work();
  });
}

const RETRY_MS = 50;

/**
 * SQLite locks per connection, so a write lock held on the database file itself would also shut
 * out this process's own connection. The lock is a write transaction on a file of its own beside
 * the database instead. Polled rather than waited for with a busy timeout: better-sqlite3 would
 * wait synchronously and stall the event loop.
 */
async function withLockFile<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = new SQLite(`${file}.startup-lock`, { timeout: 0 });
  try {
    for (;;) {
      try {
        lock.exec('begin immediate');
        break;
      } catch (error) {
        if (!(error instanceof SQLite.SqliteError && error.code === 'SQLITE_BUSY')) throw error;
        await sleep(RETRY_MS);
      }
    }
    return await work();
  } finally {
    // Closing rolls the empty transaction back, which frees the lock.
    lock.close();
  }
}
