import { PostgresAdapter, sql, type QueryExecutorProvider } from 'kysely';

/**
 * Holds the row `id` of `table` until the transaction `trx` ends, so a limit counted under it
 * (a member's share links, a conversation's documents) cannot be passed by parallel requests:
 * each counts only after the one before has committed. PostgreSQL locks the row (`FOR UPDATE`);
 * SQLite needs nothing, since its one connection runs a transaction at a time. Answers whether
 * the row exists.
 */
export async function lockRow(
  trx: QueryExecutorProvider,
  table: string,
  id: number,
): Promise<boolean> {
  const lock = trx.getExecutor().adapter instanceof PostgresAdapter ? sql` for update` : sql``;
  const { rows } = await sql`select id from ${sql.table(table)} where id = ${id}${lock}`.execute(
    trx,
  );
  return rows.length > 0;
}
