import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';
import { UnavailableError } from '../http/unavailable';

/**
 * Every wait on PostgreSQL is bounded (issue 26), so that during an outage a call answers within
 * 5 s with a retryable refusal instead of hanging. 0 turns a bound off (long work only).
 */
export interface PgTimeouts {
  /** Opening a connection, and waiting for a free one of the pool. */
  connectMs: number;
  /**
   * The server's `statement_timeout`. The client gives up `clientGraceMs` later (pg's
   * `query_timeout`): a server that did not even answer its own cancel is unreachable.
   */
  statementMs: number;
  /** The server ends a session that sat in an open transaction this long (a stuck process). */
  idleInTransactionMs: number;
}

/** What calls get: 2 s to get a connection + 3 s for the query that finds the server gone. */
export const defaultPgTimeouts: PgTimeouts = {
  connectMs: 2000,
  statementMs: 2500,
  idleInTransactionMs: 30_000,
};

/**
 * Migrations, backfills and the benches: statements that legitimately run for minutes, still
 * bounded. The start-up lock's transaction sits idle while migrations run on other connections.
 */
export const longWorkPgTimeouts: PgTimeouts = {
  connectMs: 5000,
  statementMs: 15 * 60_000,
  idleInTransactionMs: 0,
};

const clientGraceMs = 500;
/** TCP keepalive probes start after this much silence, so a vanished peer is noticed. */
const keepAliveDelayMs = 5000;

export interface DbLogger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface PgPoolOptions {
  url: string;
  max: number;
  timeouts: PgTimeouts;
  logger: DbLogger;
  /** Extra server options (`-c search_path=...`). */
  options?: string;
  types?: pg.CustomTypesConfig;
}

/** Messages node-postgres gives when the connection, not the statement, failed. */
const lostConnectionMessages = [
  'Connection terminated',
  'Query read timeout',
  'timeout expired',
  'timeout exceeded when trying to connect',
  'is not queryable',
];

/**
 * Whether the connection that gave this error is gone or in an unknown state (so it must be
 * destroyed, never reused): a lost socket, a query the client stopped waiting for, or a server
 * that is shutting the session down. A statement's own failure (a constraint, a syntax error, its
 * statement_timeout) leaves the connection usable and is not one.
 */
export function isLostConnection(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return /^(08|57P0[1-3])/.test(error.code ?? '');
  if (!(error instanceof Error)) return false;
  if (typeof (error as NodeJS.ErrnoException).syscall === 'string') return true;
  if (lostConnectionMessages.some((text) => error.message.includes(text))) return true;
  return error.cause !== undefined && isLostConnection(error.cause);
}

/** Errors of getting a connection that are misconfiguration (bad password, no such database). */
function isConfigurationError(error: unknown): boolean {
  return error instanceof pg.DatabaseError && /^(28|3D)/.test(error.code ?? '');
}

/**
 * Heard by a client handed back to be destroyed: it may still get its server's goodbye while it
 * closes (57P01 "terminating connection" on a restart), with no listener of pg-pool's left on it.
 * A full run saw one reach the process as an uncaught error during `pg_ctl restart`.
 */
function closing(): void {}

/**
 * The pool Kysely's PostgresDialect draws from, wrapped so that the database blinking never ends
 * the process and never leaves a dead connection in use (issue 26):
 * - the pool's and every checked-out client's 'error' events are handled (an unhandled one ends
 *   Node), logged once per incident;
 * - a client whose connection failed is released with the error, which makes pg-pool destroy it
 *   (Kysely releases without one and would hand it out again);
 * - a lost connection retires every connection opened before it: when a host vanishes, the idle
 *   ones are as dead as the one that noticed, and each would otherwise cost a caller a full query
 *   timeout. They are dropped when next checked out, so after an outage the first call opens a
 *   fresh connection;
 * - connection failures reach the caller as `UnavailableError('database')`, answered as a
 *   retryable refusal; a statement's own errors pass unchanged.
 */
export class SturdyPgPool implements PostgresPool {
  readonly pool: pg.Pool;
  readonly #logger: DbLogger;
  /** Closing waits this long (the connect bound) for connections still checked out. */
  readonly #endTimeoutMs: number;
  /** Bumped by every lost connection; a client last proven alive before it is retired. */
  #epoch = 0;
  readonly #provenAt = new WeakMap<pg.PoolClient, number>();
  /** When the current incident began (undefined: the database answers). */
  #downSince: number | undefined;

  constructor(options: PgPoolOptions) {
    const { timeouts } = options;
    const queryTimeout = timeouts.statementMs > 0 ? timeouts.statementMs + clientGraceMs : 0;
    this.#logger = options.logger;
    this.#endTimeoutMs = timeouts.connectMs;
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.max,
      connectionTimeoutMillis: timeouts.connectMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: keepAliveDelayMs,
      ...(queryTimeout > 0 ? { query_timeout: queryTimeout } : {}),
      ...(timeouts.statementMs > 0 ? { statement_timeout: timeouts.statementMs } : {}),
      ...(timeouts.idleInTransactionMs > 0
        ? { idle_in_transaction_session_timeout: timeouts.idleInTransactionMs }
        : {}),
      ...(options.options ? { options: options.options } : {}),
      ...(options.types ? { types: options.types } : {}),
    });
    // An idle client's error (the server restarted, a reset): pg-pool has already dropped it.
    this.pool.on('error', (error) => this.#lost(error));
    this.pool.on('connect', (client) => this.#provenAt.set(client, this.#epoch));
  }

  async connect(): Promise<PostgresPoolClient> {
    for (;;) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        if (isConfigurationError(error)) throw error;
        this.#lost(error, false);
        throw new UnavailableError('database', error);
      }
      if ((this.#provenAt.get(client) ?? -1) >= this.#epoch) return this.#guard(client);
      client.on('error', closing);
      client.release(new Error('retired: a connection opened before it was lost'));
    }
  }

  /**
   * Closes the pool. Bounded: pg-pool waits for every checked-out client and says goodbye on
   * every idle one, which a vanished host never acknowledges; a stopping server must not hang.
   */
  async end(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#endTimeoutMs);
      timer.unref();
    });
    await Promise.race([this.pool.end(), gaveUp]);
    clearTimeout(timer);
  }

  #guard(client: pg.PoolClient): PostgresPoolClient {
    let broken: unknown;
    const onError = (error: unknown) => {
      broken ??= error;
      this.#lost(error);
    };
    client.on('error', onError);
    const run = async <R>(
      sql: string,
      parameters: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>> => {
      // Kysely rolls a failed transaction back on the same connection: on a silent one that
      // would wait a second query timeout behind the first.
      if (broken !== undefined) throw new UnavailableError('database', broken);
      try {
        const result = await client.query(sql, [...parameters]);
        this.#provenAt.set(client, this.#epoch);
        this.#restored();
        return result as unknown as PostgresQueryResult<R>;
      } catch (error) {
        if (!isLostConnection(error)) throw error;
        broken ??= error;
        this.#lost(error);
        throw new UnavailableError('database', error);
      }
    };
    function query<R>(
      sql: string,
      parameters: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(
      sqlOrCursor: string | PostgresCursor<R>,
      parameters: ReadonlyArray<unknown> = [],
    ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      if (typeof sqlOrCursor !== 'string') throw new Error('cursors are not configured');
      return run<R>(sqlOrCursor, parameters);
    }
    return {
      query,
      release: () => {
        client.off('error', onError);
        if (broken === undefined) return client.release();
        // With an error pg-pool destroys the client instead of keeping it.
        client.on('error', closing);
        client.release(toError(broken));
      },
    };
  }

  /** A connection was lost: retire the older ones; log once per incident. */
  #lost(error: unknown, retire = true): void {
    if (retire) this.#epoch += 1;
    if (this.#downSince !== undefined) return;
    this.#downSince = Date.now();
    this.#logger.warn(
      { err: error },
      'database connection lost: refusing calls until it answers again; the next call reconnects',
    );
  }

  #restored(): void {
    if (this.#downSince === undefined) return;
    const downMs = Date.now() - this.#downSince;
    this.#downSince = undefined;
    this.#logger.info({ downMs }, 'database answers again');
  }
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
