import { libraries, type Library } from '@atrium/shared/contract/files';
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../db/index';

/** The columns of other features' tables the dashboard counts (only when the table exists). */
type CountedTables = {
  files: { library: string; size: number; createdAt: number };
  chatRooms: { id: number };
  chatMessages: { createdAt: number };
};

export interface DayBucket {
  /** Days since the first day of the window. */
  day: number;
  count: number;
}

/** Read-only counts for the dashboard, dialect-neutral. */
export class DashboardRepository {
  private readonly db;

  constructor(db: Db) {
    this.db = db.withTables<CountedTables>();
  }

  /** Which of `tables` (snake_case names) exist in the current database or schema. */
  async existingTables(tables: readonly string[]): Promise<Set<string>> {
    const rows =
      this.db.getExecutor().adapter instanceof PostgresAdapter
        ? await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_name in (${sql.join(tables)})`.execute(
            this.db,
          )
        : await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name in (${sql.join(tables)})`.execute(this.db);
    return new Set(rows.rows.map((r) => r.name));
  }

  async countMembers(): Promise<number> {
    const row = await this.db
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('admins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countRooms(): Promise<number> {
    const row = await this.db
      .selectFrom('chatRooms')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countMessagesSince(since: number): Promise<number> {
    const row = await this.db
      .selectFrom('chatMessages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('createdAt', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Files and bytes per library, over every owner. */
  async storageByLibrary(): Promise<{ library: Library; files: number; bytes: number }[]> {
    const rows = await this.db
      .selectFrom('files')
      .select((eb) => [
        'library',
        eb.fn.countAll<number>().as('files'),
        eb.fn.sum<number>('size').as('bytes'),
      ])
      .groupBy('library')
      .execute();
    return libraries.map((library) => {
      const row = rows.find((r) => r.library === library);
      return { library, files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
    });
  }

  /** Rows of `table` per day since `start` (epoch ms of the first day's midnight). */
  async perDay(table: 'files' | 'members', start: number): Promise<DayBucket[]> {
    // Integer division of epoch-ms differences: the same on SQLite and PostgreSQL bigints. The
    // start is a literal so PostgreSQL sees the grouped and selected expressions as one.
    const day = sql<number>`(${sql.ref('createdAt')} - ${sql.lit(Math.trunc(start))}) / 86400000`;
    const rows = await this.db
      .selectFrom(table)
      .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('count')])
      .where('createdAt', '>=', start)
      .groupBy(day)
      .execute();
    return rows.map((r) => ({ day: Number(r.day), count: Number(r.count) }));
  }
}
