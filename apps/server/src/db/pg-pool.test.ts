import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outageOf, UnavailableError } from '../http/unavailable';
import { startFaultProxy, type FaultProxy } from '../testing/fault-proxy';
import { createDb, longWorkPgTimeouts, type Db } from './index';
import { isLostConnection } from './pg-pool';
import { poolStats } from './pool-stats';

/**
 * The pool against a real PostgreSQL behind a fault proxy (the machine's server is never
 * restarted: its connections are cut by the proxy or ended with pg_terminate_backend).
 */
const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)('the PostgreSQL pool when the database blinks', () => {
  let proxy: FaultProxy;
  let db: Db;
  let logged: string[];
  const statementMs = 300;

  beforeAll(async () => {
    const target = new URL(url ?? '');
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
  });
  afterAll(async () => {
    await proxy.close();
  });

  beforeEach(() => {
    proxy.heal();
    logged = [];
    const target = new URL(url ?? '');
    target.host = proxy.address;
    const record = (_details: object, message: string) => logged.push(message);
    db = createDb(
      { kind: 'postgres', url: target.toString() },
      {
        timeouts: { connectMs: 300, statementMs, idleInTransactionMs: 2000 },
        logger: { warn: record, info: record },
      },
    );
  });
  afterEach(async () => {
    proxy.heal();
    await db.destroy();
  });

  const backendPid = async (on: Db = db) =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(on)).rows[0]?.pid;

  /** Runs `work` and gives back what it threw (failing the test if it did not). */
  const failure = async (work: () => Promise<unknown>): Promise<unknown> => {
    try {
      await work();
    } catch (error) {
      return error;
    }
    throw new Error('expected a failure');
  };

  it('an idle connection ended by the server (57P01) is dropped and the next call reconnects', async () => {
    const pid = await backendPid();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await admin.end();
    await sleep(100);
    const next = await backendPid();
    expect(next).toBeDefined();
    expect(next).not.toBe(pid);
    expect(logged).toEqual([
      'database connection lost: refusing calls until it answers again; the next call reconnects',
      'database answers again',
    ]);
  });

  it('connections reset mid-transaction are destroyed, not handed out again', async () => {
    const pids = new Set<number | undefined>();
    const error = await failure(() =>
      db.transaction().execute(async (trx) => {
        pids.add(await backendPid(trx));
        proxy.reset();
        await sql`select 1`.execute(trx);
      }),
    );
    expect(error).toBeInstanceOf(UnavailableError);
    expect(outageOf(error)).toBe('database');
    const after = await backendPid();
    expect(pids.has(after)).toBe(false);
    expect(poolStats(db)?.total).toBe(1);
  });

  it('a query on a vanished host is given up after the statement bound; afterwards the old connections are retired at once', async () => {
    // Three idle connections, then the host vanishes without a reset.
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(db)));
    expect(poolStats(db)?.idle).toBe(3);
    proxy.blackhole();
    const began = Date.now();
    const error = await failure(() => sql`select 1`.execute(db));
    const waited = Date.now() - began;
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).cause).toMatchObject({ message: 'Query read timeout' });
    expect(waited).toBeLessThan(statementMs + 1500);
    // New connections meet the same silence: refused within the connect bound.
    const connecting = await failure(() => sql`select 1`.execute(db));
    expect(outageOf(connecting)).toBe('database');
    proxy.heal();
    // The two dead idle connections are not tried (each would cost a query timeout).
    const healed = Date.now();
    expect(await backendPid()).toBeDefined();
    expect(Date.now() - healed).toBeLessThan(statementMs);
  });

  it('a transaction on a vanished host fails within one query bound (its rollback does not wait another)', async () => {
    const began = Date.now();
    const error = await failure(() =>
      db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        proxy.blackhole();
        await sql`select 2`.execute(trx);
      }),
    );
    expect(outageOf(error)).toBe('database');
    // One query bound is statementMs + 500 ms (800 ms); a rollback waiting a second, 1,600 ms.
    expect(Date.now() - began).toBeLessThan(1400);
  });

  it('a refused connection is a database refusal within the connect bound', async () => {
    proxy.refuse();
    const began = Date.now();
    const error = await failure(() => sql`select 1`.execute(db));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(Date.now() - began).toBeLessThan(1000);
  });

  it('closing the pool waits for a connection still in use no longer than the connect bound', async () => {
    let release = () => undefined as void;
    let inUse = () => undefined as void;
    const acquired = new Promise<void>((resolve) => (inUse = resolve));
    const held = db.connection().execute(async (connection) => {
      await sql`select 1`.execute(connection);
      inUse();
      await new Promise<void>((resolve) => (release = resolve));
    });
    // The pool is closed once the connection is in use (a fixed pause raced a slow acquire).
    await acquired;
    const began = Date.now();
    await db.destroy();
    expect(Date.now() - began).toBeLessThan(1000);
    release();
    await held;
  });

  it("a statement's own failure passes unchanged and keeps its connection", async () => {
    const pid = await backendPid();
    const error = await failure(() => sql`select 1 / 0`.execute(db));
    expect(error).toBeInstanceOf(pg.DatabaseError);
    expect(outageOf(error)).toBeUndefined();
    expect(await backendPid()).toBe(pid);
    // The server's statement timeout (57014): retryable, and the connection is still good.
    const slow = await failure(() => sql`select pg_sleep(5)`.execute(db));
    expect(slow).toMatchObject({ code: '57014' });
    expect(outageOf(slow)).toBe('database');
    expect(await backendPid()).toBe(pid);
    expect(logged).toEqual([]);
  });
});

describe.runIf(url)('the bounds a PostgreSQL session gets', () => {
  const settings = async (db: Db) =>
    (
      await sql<{
        statement: string;
        idle: string;
      }>`select current_setting('statement_timeout') as statement, current_setting('idle_in_transaction_session_timeout') as idle`.execute(
        db,
      )
    ).rows[0];

  it('calls: the default bounds, or DATABASE_STATEMENT_TIMEOUT_MS; long work: minutes', async () => {
    const database = { kind: 'postgres' as const, url: url ?? '' };
    const calls = createDb(database);
    const configured = createDb({ ...database, statementTimeoutMs: 8000 });
    const longWork = createDb(database, { timeouts: longWorkPgTimeouts });
    try {
      expect(await settings(calls)).toEqual({ statement: '2500ms', idle: '30s' });
      expect(await settings(configured)).toEqual({ statement: '8s', idle: '30s' });
      expect(await settings(longWork)).toEqual({ statement: '15min', idle: '0' });
    } finally {
      await Promise.all([calls.destroy(), configured.destroy(), longWork.destroy()]);
    }
  });
});

describe('isLostConnection', () => {
  const dbError = (code: string) => Object.assign(new pg.DatabaseError('x', 1, 'error'), { code });
  it('tells a lost connection from a failed statement', () => {
    for (const error of [
      dbError('57P01'),
      dbError('08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('Query read timeout'),
      new Error('Connection terminated due to connection timeout', {
        cause: new Error('timeout expired'),
      }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }),
      Object.assign(new Error('connect ECONNREFUSED'), {
        code: 'ECONNREFUSED',
        syscall: 'connect',
      }),
    ])
      expect(isLostConnection(error), String(error)).toBe(true);
    for (const error of [
      dbError('23505'),
      dbError('57014'),
      dbError('42P01'),
      new TypeError('x is not a function'),
    ])
      expect(isLostConnection(error), String(error)).toBe(false);
  });
});
