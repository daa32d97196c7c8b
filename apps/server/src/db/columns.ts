import {
  PostgresAdapter,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
} from 'kysely';

/** Migrations get a plugin-free Kysely of unknown shape; these helpers keep them dialect-neutral. */
export type MigrationDb = Kysely<unknown>;

export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Integer primary key: `integer primary key autoincrement` on SQLite, `serial primary key` on PostgreSQL. */
export function withId<T extends string>(
  db: MigrationDb,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (col) => col.primaryKey())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** Epoch milliseconds: bigint on both (SQLite gives it integer affinity). */
export const timestamp = 'bigint' as const;

export const notNull = (col: ColumnDefinitionBuilder) => col.notNull();

/** 0/1 flag with a default, as an integer so both dialects bind plain numbers. */
export const flag = (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(0);
