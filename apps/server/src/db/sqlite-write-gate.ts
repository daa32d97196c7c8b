import {
  SqliteDialect,
  SqliteDriver,
  type CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * The turn to write to a SQLite file, among the writers of this process: the instance's own
 * connection and the threads writing beside it (the streamed answers' appends). SQLite lets one
 * connection write at a time and makes the others wait in its busy handler, which sleeps on the
 * caller's thread: on the instance's connection that held the whole event loop for as long as a
 * thread's write took (a thousand answers ending at once spent 1.6 s so). Here they wait for
 * their turn on a queue instead, without holding the event loop; SQLite's busy timeout is left
 * for writers of other processes (the CLI).
 *
 * First come, first served. A wait is bounded: past `waitMs` it fails as SQLite would (code
 * SQLITE_BUSY: a retryable refusal of the database).
 */
export class WriteGate {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly waitMs: number) {}

  /** Waits for the turn to write; `release` must follow. */
  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(busyError(this.waitMs));
      }, this.waitMs);
      this.waiting.push(turn);
    });
  }

  /** Hands the turn to the next writer waiting, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }

  /** Runs `work` in its turn. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}

function busyError(waitMs: number): Error & { code: string } {
  return Object.assign(
    new Error(`database is locked: another writer of this process held it for over ${waitMs} ms`),
    { code: 'SQLITE_BUSY' },
  );
}

/**
 * Kysely's SQLite dialect with the instance's writes taken in turn (`WriteGate`): a transaction
 * from its BEGIN to its end, a write outside a transaction for its statement (`writes` tells one
 * from a read). Reads never wait: in WAL mode they do not need the lock.
 */
export class GatedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly gate: WriteGate,
    private readonly writes: (sql: string) => boolean,
  ) {
    super(settings);
  }

  override createDriver(): SqliteDriver {
    return new GatedSqliteDriver(this.settings, this.gate, this.writes);
  }
}

class GatedSqliteDriver extends SqliteDriver {
  /** Whether this connection is in a transaction, and so holds the turn. */
  private inTransaction = false;

  constructor(
    settings: SqliteDialectConfig,
    private readonly gate: WriteGate,
    private readonly writes: (sql: string) => boolean,
  ) {
    super(settings);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    return {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
        this.inTransaction || !this.writes(query.sql)
          ? connection.executeQuery<R>(query)
          : this.gate.run(() => connection.executeQuery<R>(query)),
      streamQuery: <R>(query: CompiledQuery, chunkSize?: number) =>
        connection.streamQuery<R>(query, chunkSize),
    };
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await this.gate.acquire();
    this.inTransaction = true;
    try {
      await super.beginTransaction(connection);
    } catch (error) {
      this.leave();
      throw error;
    }
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } finally {
      this.leave();
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      this.leave();
    }
  }

  /** Gives up the turn once, however the transaction ended. */
  private leave(): void {
    if (!this.inTransaction) return;
    this.inTransaction = false;
    this.gate.release();
  }
}
