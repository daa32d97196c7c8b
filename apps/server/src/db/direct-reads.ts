import type SQLite from 'better-sqlite3';
import { CamelCasePlugin, type Kysely } from 'kysely';

/** Atrium's CamelCasePlugin, which also names a result column as the plugin maps it. */
export class AtriumCamelCase extends CamelCasePlugin {
  keyOf(column: string): string {
    return this.camelCase(column);
  }
}

/** A statement read directly, with its result columns' names as Kysely's rows carry them. */
interface DirectStatement {
  statement: SQLite.Statement;
  keys: string[];
}

/**
 * Reads of prepared queries (prepared.ts) run straight on the SQLite connection, skipping
 * Kysely's executor (its connection mutex, plugin passes and promise chain: about 15 µs of the
 * 20-25 µs an indexed read of the file library took through it, on a 2-core machine). Only:
 * - statements that only read (better-sqlite3 tells, from the prepared statement);
 * - while the connection is outside any transaction (`inTransaction`, SQLite's own state, which
 *   a transaction Kysely opened and one begun by hand on `db.connection()` both set): a read
 *   never sees another caller's uncommitted writes, and never runs inside their transaction;
 * - on the database itself, not a transaction of it, and with Atrium's one plugin (the rows'
 *   keys as AtriumCamelCase names them).
 * better-sqlite3 runs a statement to its end before returning, so nothing interleaves with it.
 */
export class DirectReads {
  private readonly statements = new Map<string, DirectStatement | null>();

  constructor(
    private readonly database: SQLite.Database,
    readonly plugin: AtriumCamelCase,
  ) {}

  /** The rows of a read, or undefined when it must go through Kysely. */
  read<R>(sql: string, parameters: readonly unknown[]): R[] | undefined {
    if (this.database.inTransaction) return undefined;
    const direct = this.statementFor(sql);
    if (!direct) return undefined;
    const { statement, keys } = direct;
    const rows = statement.all(...parameters) as unknown[][];
    return rows.map((values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i += 1) row[keys[i] as string] = values[i];
      return row as R;
    });
  }

  /**
   * The statement of `sql`, prepared once (prepared queries are compiled once per dialect, so
   * their texts are a fixed set), returning arrays: each row is built once, with the keys.
   */
  private statementFor(sql: string): DirectStatement | null {
    let direct = this.statements.get(sql);
    if (direct === undefined) {
      const statement = this.database.prepare(sql);
      direct =
        statement.reader && statement.readonly
          ? {
              statement: statement.raw(true),
              keys: statement.columns().map((c) => this.plugin.keyOf(c.name)),
            }
          : null;
      this.statements.set(sql, direct);
    }
    return direct;
  }
}

const registry = new WeakMap<object, DirectReads>();

/** Lets prepared queries on `db` (not on its transactions) read through `reads`. */
export function registerDirectReads<DB>(db: Kysely<DB>, reads: DirectReads): void {
  registry.set(db.getExecutor().adapter, reads);
}

/** The direct reads of `db`, if it is a SQLite database (not a transaction) with Atrium's plugin. */
export function directReadsOf<DB>(db: Kysely<DB>): DirectReads | undefined {
  if (db.isTransaction) return undefined;
  const executor = db.getExecutor();
  const reads = registry.get(executor.adapter);
  if (!reads) return undefined;
  const { plugins } = executor;
  return plugins.length === 1 && plugins[0] === reads.plugin ? reads : undefined;
}
