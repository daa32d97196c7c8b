import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach } from 'vitest';
import type { DatabaseConfig } from '../config';
import { createDb, longWorkPgTimeouts, type Db } from '../db/index';
import { migrateToLatest } from '../db/migrate';

export type DbKind = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const testDbKinds: DbKind[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

export interface TestDb {
  db: Db;
  kind: DbKind;
  database: DatabaseConfig;
  /** Closes the connection and removes the SQLite file or drops the PostgreSQL schema. */
  cleanup(): Promise<void>;
}

/**
 * A freshly migrated database: a SQLite file in a temp folder, or a fresh PostgreSQL schema on
 * TEST_DATABASE_URL (dropped by cleanup) so parallel test files and runs never collide.
 */
export async function createTestDb(kind: DbKind = 'sqlite', dir?: string): Promise<TestDb> {
  if (kind === 'sqlite') {
    const folder = dir ?? mkdtempSync(join(tmpdir(), 'atrium-db-'));
    const database: DatabaseConfig = { kind: 'sqlite', file: join(folder, 'atrium.db') };
    const db = createDb(database);
    await migrateToLatest(db);
    return {
      db,
      kind,
      database,
      cleanup: async () => {
        await db.destroy();
        if (!dir) rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database: DatabaseConfig = { kind: 'postgres', url };
  // Migrations wait on each other's locks across parallel test files: bounds of long work.
  const migrating = createDb(database, { searchPath: schema, timeouts: longWorkPgTimeouts });
  try {
    await migrateToLatest(migrating);
  } finally {
    await migrating.destroy();
  }
  const db = createDb(database, { searchPath: schema });
  return {
    db,
    kind,
    database,
    cleanup: async () => {
      await db.destroy();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

/**
 * A fresh database for each test of the calling `describe`, cleaned up after the test:
 * `const fresh = testDbPerTest();` then `const t = await fresh.open(kind)` in a test.
 */
export function testDbPerTest(): { open(kind?: DbKind): Promise<TestDb> } {
  let opened: TestDb | undefined;
  afterEach(async () => {
    await opened?.cleanup();
    opened = undefined;
  });
  return { open: async (kind = 'sqlite') => (opened = await createTestDb(kind)) };
}
