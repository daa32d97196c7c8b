import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
import type { Database } from './types';

export type Db = Kysely<Database>;

export interface DbOptions {
  /** PostgreSQL only: the schema to work in (tests use one fresh schema per file). */
  searchPath?: string;
}

const INT8_OID = 20;

/**
 * Opens the database named by the config. SQLite runs in WAL mode with foreign keys on and a
 * busy timeout so a second process (the CLI) waits instead of failing.
 */
export function createDb(config: DatabaseConfig, options: DbOptions = {}): Db {
  const plugins = [new CamelCasePlugin()];
  if (config.kind === 'sqlite') {
    mkdirSync(dirname(config.file), { recursive: true });
    const database = new SQLite(config.file);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    database.pragma('synchronous = NORMAL');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database }), plugins });
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    // Epoch-millisecond timestamps and counts are bigint columns; they fit a JS number.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
}

export type { Database } from './types';
