import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  sql,
  SqliteAdapter,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import type { DatabaseConfig } from '../config';
import { defaultPgTimeouts, SturdyPgPool, type DbLogger, type PgTimeouts } from './pg-pool';
import { AtriumCamelCase, DirectReads, registerDirectReads } from './direct-reads';
import { registerPool } from './pool-stats';
import type { Database } from './types';
import { openSqlite } from './sqlite-connection.mjs';
import { GatedSqliteDialect, WriteGate } from './sqlite-write-gate';

export type Db = Kysely<Database>;

export interface DbOptions {
  /** PostgreSQL only: the schema to work in (tests use one fresh schema per file). */
  searchPath?: string;
  /**
   * PostgreSQL only: the bounds on every wait (defaults: `defaultPgTimeouts`, the statement
   * timeout from DATABASE_STATEMENT_TIMEOUT_MS); `longWorkPgTimeouts` for migrations and benches.
   */
  timeouts?: Partial<PgTimeouts>;
  /** Where lost and restored connections are reported (default: warnings to stdout). */
  logger?: DbLogger;
  /** SQLite only: how long a write waits for another process's lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
}

const INT8_OID = 20;
const statementCacheSize = 500;
/** better-sqlite3 blocks the event loop while it waits: long enough for the CLI's short writes. */
export const sqliteBusyTimeoutMs = 5000;

/**
 * Kysely prepares a new SQLite statement for every query; preparing costs about as much as
 * running a simple indexed read. Queries are serialised on the one connection and never
 * streamed, so a prepared statement can be reused for the same SQL text.
 *
 * Transactions begin IMMEDIATE (Kysely says `begin`): they take the write lock first, waiting
 * out another connection's write (the CLI, an import's writer thread) within the busy timeout. A
 * deferred transaction that read first would instead fail at its first write with
 * SQLITE_BUSY_SNAPSHOT whenever another connection committed in between.
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(text) {
      const sql = text === 'begin' ? 'begin immediate' : text;
      const cached = cache.get(sql);
      if (cached) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > statementCacheSize) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      return statement;
    },
  };
}

/** Whether a statement only reads (better-sqlite3 tells, from its prepared form). */
function isReadOnly(database: SqliteDatabase, text: string): boolean {
  return (database.prepare(text) as SqliteStatement & { readonly: boolean }).readonly;
}

const writeGates = new WeakMap<Db, WriteGate>();

/**
 * The turn to write to the SQLite file of `db` among this process's writers (sqlite-write-gate.ts):
 * a thread writing to the same file takes it around each of its writes. Undefined on PostgreSQL.
 */
export function writeGateOf(db: Db): WriteGate | undefined {
  return writeGates.get(db);
}

/**
 * Opens the database named by the config. SQLite runs in WAL mode with foreign keys on and a
 * busy timeout so a second process (the CLI) waits instead of failing; better-sqlite3 waits
 * synchronously, so the timeout is short. PostgreSQL goes through a pool that survives the
 * server restarting or vanishing (`SturdyPgPool`).
 */
export function createDb(config: DatabaseConfig, options: DbOptions = {}): Db {
  const camelCase = new AtriumCamelCase();
  const plugins = [camelCase];
  if (config.kind === 'sqlite') {
    mkdirSync(dirname(config.file), { recursive: true });
    const busyTimeoutMs = options.busyTimeoutMs ?? sqliteBusyTimeoutMs;
    const connection = openSqlite(config.file, busyTimeoutMs);
    const database = withStatementCache(connection);
    const gate = new WriteGate(busyTimeoutMs);
    const db = new Kysely<Database>({
      dialect: new GatedSqliteDialect({ database }, gate, (text) => !isReadOnly(database, text)),
      plugins,
    });
    writeGates.set(db, gate);
    registerDirectReads(db, new DirectReads(connection, camelCase));
    return db;
  }
  const pool = new SturdyPgPool({
    url: config.url,
    max: 10,
    timeouts: {
      ...defaultPgTimeouts,
      ...(config.statementTimeoutMs === undefined
        ? {}
        : { statementMs: config.statementTimeoutMs }),
      ...options.timeouts,
    },
    logger: options.logger ?? pino({ level: 'warn' }),
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    // Epoch-millisecond timestamps and counts are bigint columns; they fit a JS number.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
  registerPool(db, pool.pool);
  return db;
}

export type { Database } from './types';
export { defaultPgTimeouts, longWorkPgTimeouts, type DbLogger, type PgTimeouts } from './pg-pool';

/**
 * The file of the SQLite database `db` works on, or undefined: PostgreSQL (whose pool does not
 * hold the event loop), or an in-memory database, which another connection cannot open.
 */
export async function sqliteFileOf(db: Db): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return undefined;
  const { rows } = await sql<{
    file: string;
  }>`select file from pragma_database_list where name = 'main'`.execute(db);
  return rows[0]?.file || undefined;
}
