import { sql, type ColumnDefinitionBuilder } from 'kysely';
import type { MigrationDb } from '../columns';

const big = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

/**
 * Budgets that cannot be overspent (issue 18): one counter row per member or room and period
 * (`d:YYYY-MM-DD`, `m:YYYY-MM`, UTC) holds what was used and what answers being written have
 * reserved. An answer reserves its maximum in the transaction that records it, by a conditional
 * update of these rows, and settles on its real usage when it ends; its usage row keeps what it
 * reserved (`reserved_tokens`, `reserved_cost`) until then (`settled`), so an answer whose
 * instance died is settled by whichever instance ends it.
 *
 * Costs are integers in millionths of the site's currency; models carry prices per million
 * tokens in the same unit; rooms a budget of their own (JSON).
 *
 * The counters of the current month are filled from the usage ledger, so limits set today count
 * what was already used.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('chat_budget_counters')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'integer', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('messages', 'bigint', big)
    .addColumn('tokens', 'bigint', big)
    .addColumn('cost', 'bigint', big)
    .addColumn('reserved_tokens', 'bigint', big)
    .addColumn('reserved_cost', 'bigint', big)
    .addPrimaryKeyConstraint('chat_budget_counters_pk', ['scope', 'scope_id', 'period'])
    .execute();

  await db.schema.alterTable('chat_usage').addColumn('reserved_tokens', 'bigint', big).execute();
  await db.schema.alterTable('chat_usage').addColumn('reserved_cost', 'bigint', big).execute();
  await db.schema.alterTable('chat_usage').addColumn('cost', 'bigint', big).execute();
  // The model's prices when the answer was asked for: its cost does not change with them.
  await db.schema.alterTable('chat_usage').addColumn('prompt_price', 'bigint', big).execute();
  await db.schema.alterTable('chat_usage').addColumn('completion_price', 'bigint', big).execute();
  // Rows written before budgets have nothing reserved: settled.
  await db.schema
    .alterTable('chat_usage')
    .addColumn('settled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema.alterTable('ai_models').addColumn('prompt_price', 'bigint', big).execute();
  await db.schema.alterTable('ai_models').addColumn('completion_price', 'bigint', big).execute();
  await db.schema
    .alterTable('chat_rooms')
    .addColumn('budget', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  const month = new Date().toISOString().slice(0, 7);
  for (const [scope, column] of [
    ['member', 'member_id'],
    ['room', 'room_id'],
  ] as const) {
    for (const period of [sql`'d:' || day`, sql`'m:' || substr(day, 1, 7)`]) {
      await sql`
        insert into chat_budget_counters (scope, scope_id, period, messages, tokens)
        select ${scope}, ${sql.ref(column)}, ${period}, count(*),
               coalesce(sum(prompt_tokens + completion_tokens), 0)
        from chat_usage
        where day >= ${`${month}-01`}
        group by ${sql.ref(column)}, ${period}`.execute(db);
    }
  }
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('chat_rooms').dropColumn('budget').execute();
  await db.schema.alterTable('ai_models').dropColumn('completion_price').execute();
  await db.schema.alterTable('ai_models').dropColumn('prompt_price').execute();
  for (const column of [
    'settled',
    'completion_price',
    'prompt_price',
    'cost',
    'reserved_cost',
    'reserved_tokens',
  ])
    await db.schema.alterTable('chat_usage').dropColumn(column).execute();
  await db.schema.dropTable('chat_budget_counters').execute();
}
