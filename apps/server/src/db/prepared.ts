import { createQueryId, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import { directReadsOf } from './direct-reads';

/** Stands in for the `index`-th argument while a prepared query is built. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query built and compiled once per dialect, then run with new argument values: building a
 * Kysely query and compiling it costs more than running an indexed SQLite read, and the hot
 * paths (signing in every request, listing files) run the same few queries all the time.
 *
 * `build` is called once, with stand-ins for the arguments: it must use each argument only as a
 * value in the query (`where('id', '=', id)`, `limit(n)`), never branch on it or pass it where
 * Kysely expects a list (`in`). Its arguments are counted from the function's `length`, so list
 * them as plain parameters: no defaults, no rest parameter. Runs on `db` or on a transaction of it.
 * On SQLite, a read on `db` outside any transaction skips Kysely's executor (direct-reads.ts).
 */
export class PreparedQuery<DB, A extends readonly unknown[], R> {
  private readonly compiled = new WeakMap<object, CompiledQuery<R>>();

  constructor(private readonly build: (db: Kysely<DB>, ...args: A) => Compilable<R>) {}

  private compiledFor(db: Kysely<DB>): CompiledQuery<R> {
    // The adapter stands for the dialect; a transaction shares its database's adapter.
    const dialect = db.getExecutor().adapter;
    let compiled = this.compiled.get(dialect);
    if (!compiled) {
      const slots = Array.from({ length: this.build.length - 1 }, (_, index) => new Slot(index));
      compiled = this.build(db, ...(slots as unknown as A)).compile();
      const used = new Set(
        compiled.parameters.filter((value) => value instanceof Slot).map((slot) => slot.index),
      );
      if (used.size !== slots.length)
        throw new Error(
          `prepared query uses ${used.size} of its ${slots.length} arguments: ${compiled.sql}`,
        );
      this.compiled.set(dialect, compiled);
    }
    return compiled;
  }

  /** All rows for these argument values. */
  async execute(db: Kysely<DB>, ...args: A): Promise<R[]> {
    const compiled = this.compiledFor(db);
    const parameters = compiled.parameters.map((value) =>
      value instanceof Slot ? args[value.index] : value,
    );
    const direct = directReadsOf(db)?.read<R>(compiled.sql, parameters);
    if (direct) return direct;
    const result = await db.executeQuery<R>({ ...compiled, parameters, queryId: createQueryId() });
    return result.rows;
  }

  /** The first row, or undefined. */
  async executeTakeFirst(db: Kysely<DB>, ...args: A): Promise<R | undefined> {
    const rows = await this.execute(db, ...args);
    return rows[0];
  }
}

/** Shorthand for `new PreparedQuery(build)`. */
export function prepare<DB, A extends readonly unknown[], R>(
  build: (db: Kysely<DB>, ...args: A) => Compilable<R>,
): PreparedQuery<DB, A, R> {
  return new PreparedQuery(build);
}
