import type { Kysely, Transaction } from 'kysely';

interface Pending<DB, T> {
  work: (trx: Transaction<DB>) => Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Small independent transactions asked for in the same turn of the event loop, run as one: a
 * thousand answers ending together cost a few commits, not a thousand (on SQLite each commit of
 * the instance's connection after another connection's also reloads its page cache, and the
 * search index writes a segment per commit). At most `maxSize` share one, so a group holds the
 * event loop for a bounded time (better-sqlite3 runs each statement synchronously), and the loop
 * turns between groups.
 *
 * A shared transaction that fails is rolled back whole, and each of its works then runs again in
 * a transaction of its own: one work that cannot be done fails alone, the others are done. Works
 * must not depend on one another (any order, any grouping).
 */
export class TransactionGroup<DB> {
  private pending: Pending<DB, unknown>[] = [];
  private scheduled = false;

  private readonly maxSize: number;
  private readonly closing?: (trx: Transaction<DB>) => Promise<void>;

  constructor(
    private readonly db: Kysely<DB>,
    options: {
      /** The most works one transaction holds (50). */
      maxSize?: number;
      /**
       * Runs in each transaction after its works, before it commits: work they leave to be done
       * once for all of them (counters they each add to, locked once and for a moment).
       */
      closing?: (trx: Transaction<DB>) => Promise<void>;
    } = {},
  ) {
    this.maxSize = options.maxSize ?? 50;
    this.closing = options.closing;
  }

  /** `works` in one transaction, then `closing`. */
  private execute<T>(works: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const result = await works(trx);
      await this.closing?.(trx);
      return result;
    });
  }

  /** Runs `work` in a transaction, shared with the works asked for in the same turn. */
  run<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve, reject } as Pending<DB, unknown>);
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.flush();
      });
    });
  }

  private async flush(): Promise<void> {
    for (let first = true; this.pending.length > 0; first = false) {
      // Between two groups the event loop turns: on SQLite a group's statements run without
      // one, and a queue of groups run back to back held it for all of them (1,000 answers
      // ending together: 450 ms without a streamed token going out).
      if (!first) await nextTurn();
      const group = this.pending.splice(0, this.maxSize);
      if (group.length === 1) {
        const [only] = group as [Pending<DB, unknown>];
        await this.alone(only);
        continue;
      }
      try {
        const results = await this.execute(async (trx) => {
          const out: unknown[] = [];
          for (const { work } of group) out.push(await work(trx));
          return out;
        });
        group.forEach(({ resolve }, index) => resolve(results[index]));
      } catch {
        for (const pending of group) await this.alone(pending);
      }
    }
  }

  private async alone({ work, resolve, reject }: Pending<DB, unknown>): Promise<void> {
    try {
      resolve(await this.execute(work));
    } catch (error) {
      reject(error);
    }
  }
}
