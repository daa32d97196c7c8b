import { PostgresAdapter, sql, type ExpressionBuilder } from 'kysely';
import type { ChatDb, ChatSchema } from '../chat.tables';

export const dayKey = (day: string) => `d:${day}`;
export const monthKey = (day: string) => `m:${day.slice(0, 7)}`;

export type CountersWhere = (
  eb: ExpressionBuilder<ChatSchema, 'chatBudgetCounters'>,
) => ReturnType<ExpressionBuilder<ChatSchema, 'chatBudgetCounters'>['or']>;

/**
 * The counter rows `where` picks, in one order (scope, id, period), locked on PostgreSQL (SQLite's
 * writer holds the whole file): every transaction that changes counters locks them so first, so
 * no two wait for each other.
 */
export function countersInOrder(trx: ChatDb, where: CountersWhere) {
  const query = trx
    .selectFrom('chatBudgetCounters')
    .selectAll()
    .where(where)
    .orderBy('scope')
    .orderBy('scopeId')
    .orderBy('period');
  return trx.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query;
}

const columns = ['messages', 'tokens', 'cost', 'reservedTokens', 'reservedCost'] as const;

/** Amounts added to a member's and a room's counters of a day (and its month). */
export interface CounterBump {
  memberId: number;
  roomId: number;
  day: string;
  by: Partial<Record<(typeof columns)[number], number>>;
}

/** The day's and the month's counters of the member and of the room of `bump`. */
function rowsOfBump(eb: ExpressionBuilder<ChatSchema, 'chatBudgetCounters'>, bump: CounterBump) {
  const periods = [dayKey(bump.day), monthKey(bump.day)];
  return [
    eb.and([
      eb('scope', '=', 'member'),
      eb('scopeId', '=', bump.memberId),
      eb('period', 'in', periods),
    ]),
    eb.and([
      eb('scope', '=', 'room'),
      eb('scopeId', '=', bump.roomId),
      eb('period', 'in', periods),
    ]),
  ];
}

/**
 * Adds `bumps` to their counters: those of one member, room and day summed into one update, and
 * every row they touch locked first, at once, in the one order every writer takes (PostgreSQL:
 * an update locks rows in the order it finds them, and two answers asked for at once on two
 * instances then waited for each other's rows until PostgreSQL ended one as a deadlock).
 */
export async function bumpCounters(
  trx: ChatDb,
  bumps: readonly CounterBump[],
  /** Every row the bumps touch is already locked in this transaction (in the one order). */
  { locked = false }: { locked?: boolean } = {},
): Promise<void> {
  const merged = new Map<string, CounterBump>();
  for (const bump of bumps) {
    const key = `${bump.memberId}:${bump.roomId}:${bump.day}`;
    const into = merged.get(key);
    if (!into) {
      merged.set(key, { ...bump, by: { ...bump.by } });
      continue;
    }
    for (const column of columns) {
      const amount = bump.by[column];
      if (amount !== undefined) into.by[column] = (into.by[column] ?? 0) + amount;
    }
  }
  if (merged.size === 0) return;
  if (!locked && trx.getExecutor().adapter instanceof PostgresAdapter)
    await countersInOrder(trx, (eb) =>
      eb.or([...merged.values()].flatMap((bump) => rowsOfBump(eb, bump))),
    ).execute();
  for (const bump of merged.values()) {
    const plus = (column: (typeof columns)[number]) =>
      sql<number>`${sql.ref(column)} + ${bump.by[column] ?? 0}`;
    await trx
      .updateTable('chatBudgetCounters')
      .set({
        messages: plus('messages'),
        tokens: plus('tokens'),
        cost: plus('cost'),
        reservedTokens: plus('reservedTokens'),
        reservedCost: plus('reservedCost'),
      })
      .where((eb) => eb.or(rowsOfBump(eb, bump)))
      .execute();
  }
}

/**
 * Bumps left by the works of one transaction, applied once before it commits (the closing of a
 * `TransactionGroup`): answers ending together lock their counters once, for a moment at the end,
 * instead of from the first answer's settling to the commit.
 */
export class DeferredBumps {
  private readonly byTransaction = new WeakMap<object, CounterBump[]>();

  /** Where the works of `trx` leave their bumps. */
  of(trx: ChatDb): CounterBump[] {
    let bumps = this.byTransaction.get(trx);
    if (!bumps) {
      bumps = [];
      this.byTransaction.set(trx, bumps);
    }
    return bumps;
  }

  /** Adds what the works of `trx` left, in `trx`. */
  async apply(trx: ChatDb): Promise<void> {
    const bumps = this.byTransaction.get(trx);
    this.byTransaction.delete(trx);
    if (bumps) await bumpCounters(trx, bumps);
  }
}
