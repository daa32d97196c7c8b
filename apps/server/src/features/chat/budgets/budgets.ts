import {
  fromMicros,
  toMicros,
  type BudgetLine,
  type ChatBudget,
} from '@atrium/shared/contract/chat-budget';
import type { ChatQuota } from '@atrium/shared/contract/chat';
import { ApiError, message, type MessageRef } from '../../../http/envelope';
import {
  costOf,
  fitNext,
  type Breach,
  type CounterState,
  type Fit,
  type Need,
  type Period,
  type Scope,
  type Unit,
} from './budget-fit';
import type { ChatDb } from '../chat.tables';
import {
  bumpCounters,
  countersInOrder,
  dayKey,
  monthKey,
  type CounterBump,
  type CountersWhere,
} from './counter-bumps';

/**
 * Budgets that cannot be overspent (issue 18). Every answer asked for reserves its maximum —
 * the prompt's upper bound plus the answer's max_tokens — on the counters of its member and room
 * for the day and the month, in the transaction that records it: the counter rows are locked
 * (PostgreSQL `FOR UPDATE`; SQLite writes one transaction at a time), what is left is read, and
 * the reservation is added only when every limit holds. When little is left, the answer's
 * max_tokens is lowered to fit instead of refusing. When the answer ends, the reservation is
 * replaced by the real usage (`settle`), once, in the transaction that ends the message, by
 * whichever instance ends it (its writer, or the sweep after its writer died).
 */

export { MIN_ANSWER_TOKENS, costOf, type Fit } from './budget-fit';

interface Counter {
  scope: Scope;
  scopeId: number;
  period: Period;
  key: string;
  /** 0: no limit. Cost in millionths. */
  limits: Record<Unit, number>;
}

interface CounterRow {
  scope: Scope;
  scopeId: number;
  period: string;
  messages: number;
  tokens: number;
  cost: number;
  reservedTokens: number;
  reservedCost: number;
}

/** Prices per million tokens, in millionths of the currency. */
export interface Prices {
  promptPrice: number;
  completionPrice: number;
}

export interface ReserveRequest extends Prices {
  memberId: number;
  roomId: number;
  memberBudget: ChatQuota;
  roomBudget: ChatBudget;
  /** An upper bound of the prompt's tokens. */
  promptTokens: number;
  /** The answer's max_tokens before any budget. */
  answerTokens: number;
  now: number;
}

export interface Reservation {
  /** The answer's max_tokens, lowered to what the budgets leave. */
  answerTokens: number;
  /** Whether any token or cost limit applies: then `answerTokens` must be sent as max_tokens. */
  limited: boolean;
  tokens: number;
  cost: number;
  day: string;
}

/** The UTC day of a timestamp, YYYY-MM-DD: quotas reset at 00:00 UTC. */
const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function resetsAt(period: Period, now: number): number {
  const d = new Date(now);
  return period === 'day'
    ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
    : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

function countersOf(
  memberId: number,
  roomId: number,
  member: ChatQuota,
  room: ChatBudget,
  day: string,
): Counter[] {
  const c = (
    scope: Scope,
    scopeId: number,
    period: Period,
    messages: number,
    tokens: number,
    cost: number,
  ): Counter => ({
    scope,
    scopeId,
    period,
    key: period === 'day' ? dayKey(day) : monthKey(day),
    limits: { messages, tokens, cost: toMicros(cost) },
  });
  // Sorted as the primary key sorts, so every transaction locks them in the same order.
  return [
    c('member', memberId, 'day', member.messagesPerDay, member.tokensPerDay, member.costPerDay),
    c('member', memberId, 'month', 0, member.tokensPerMonth, member.costPerMonth),
    c('room', roomId, 'day', 0, room.tokensPerDay, room.costPerDay),
    c('room', roomId, 'month', 0, room.tokensPerMonth, room.costPerMonth),
  ];
}

const money = (micros: number) => String(+fromMicros(micros).toFixed(6));

/**
 * The refusal a member reads, in the request's language: the limit is used up, or what is left
 * is too little for this message (its prompt and a useful answer).
 */
export function refusal(
  counter: Pick<Counter, 'scope' | 'period'>,
  unit: Unit,
  limit: number,
  left = 0,
): MessageRef {
  if (unit === 'messages') return message('chat.quotaMessages', { limit });
  const member = counter.scope === 'member';
  const day = counter.period === 'day';
  const resets = day ? message('chat.budgetResetsDay') : message('chat.budgetResetsMonth');
  if (left > 0) {
    return message('chat.budgetTooLittle', {
      whose: member ? message('chat.budgetYour') : message('chat.budgetRooms'),
      period: day ? message('chat.budgetDaily') : message('chat.budgetMonthly'),
      amount:
        unit === 'tokens'
          ? message('chat.budgetLimitTokens', { n: limit })
          : message('chat.budgetCost', { n: money(limit) }),
      left: unit === 'tokens' ? message('chat.budgetTokens', { n: left }) : money(left),
      resets,
    });
  }
  return message('chat.budgetUsed', {
    whose: member ? message('chat.budgetYouHave') : message('chat.budgetRoomHas'),
    period: day ? message('chat.budgetTodays') : message('chat.budgetMonths'),
    amount:
      unit === 'tokens'
        ? message('chat.budgetLimitTokens', { n: limit })
        : message('chat.budgetCost', { n: money(limit) }),
    resets,
  });
}

/** The refusal of a question that does not fit (`fitNext`'s breach). */
const refusalOf = (breach: Breach): MessageRef =>
  refusal(breach, breach.unit, breach.limit, breach.left);

const keyOf = (scope: Scope, scopeId: number, period: string) => `${scope}:${scopeId}:${period}`;

/** The counters with what their rows say is used and held (none yet: nothing). */
function statesOf(
  counters: readonly Counter[],
  rows: ReadonlyMap<string, CounterRow>,
  mustExist: boolean,
): CounterState[] {
  return counters.map((counter) => {
    const row = rows.get(keyOf(counter.scope, counter.scopeId, counter.key));
    if (!row && mustExist) throw new Error(`budget counter ${counter.key} missing after insert`);
    return {
      scope: counter.scope,
      period: counter.period,
      limits: counter.limits,
      used: {
        messages: Number(row?.messages ?? 0),
        tokens: Number(row?.tokens ?? 0),
        cost: Number(row?.cost ?? 0),
      },
      reserved: {
        tokens: Number(row?.reservedTokens ?? 0),
        cost: Number(row?.reservedCost ?? 0),
      },
    };
  });
}

/** What the budgets allow now: every limit with what is left, and the next question's fit. */
export interface BudgetView {
  lines: BudgetLine[];
  /** Set when the next question's need was given. */
  next?: Fit & { resetsAt?: number };
}

/** The rows of `counters` (by scope, id and period). */
function rowsOf(counters: readonly Counter[]): CountersWhere {
  return (eb) =>
    eb.or(
      counters.map((c) =>
        eb.and([
          eb('scope', '=', c.scope),
          eb('scopeId', '=', c.scopeId),
          eb('period', '=', c.key),
        ]),
      ),
    );
}

export class ChatBudgets {
  constructor(private readonly now: () => number) {}

  private async lockRows(trx: ChatDb, counters: Counter[]): Promise<Map<string, CounterRow>> {
    const rows = await countersInOrder(trx, rowsOf(counters)).execute();
    return new Map(rows.map((r) => [keyOf(r.scope, r.scopeId, r.period), r]));
  }

  /**
   * Reserves an answer's maximum on every counter it counts on, or refuses with the limit it
   * would break. Runs inside the transaction that records the answer.
   */
  async reserve(trx: ChatDb, request: ReserveRequest): Promise<Reservation> {
    const day = utcDay(request.now);
    const counters = countersOf(
      request.memberId,
      request.roomId,
      request.memberBudget,
      request.roomBudget,
      day,
    );
    await trx
      .insertInto('chatBudgetCounters')
      .values(counters.map((c) => ({ scope: c.scope, scopeId: c.scopeId, period: c.key })))
      .onConflict((oc) => oc.columns(['scope', 'scopeId', 'period']).doNothing())
      .execute();
    const limited = counters.some((c) => c.limits.tokens > 0 || c.limits.cost > 0);
    let answerTokens = request.answerTokens;
    const promptCost = costOf(request.promptTokens, request.promptPrice);
    // The four rows the bump below adds to: read (and locked) only where a limit is set.
    const locked = limited || counters.some((c) => c.limits.messages > 0);
    if (locked) {
      const rows = await this.lockRows(trx, counters);
      const fit = fitNext(statesOf(counters, rows, true), request);
      if (fit.breach) throw new ApiError(refusalOf(fit.breach));
      answerTokens = fit.answerTokens;
    }
    const tokens = request.promptTokens + answerTokens;
    const cost = promptCost + costOf(answerTokens, request.completionPrice);
    await bumpCounters(
      trx,
      [
        {
          memberId: request.memberId,
          roomId: request.roomId,
          day,
          by: { messages: 1, reservedTokens: tokens, reservedCost: cost },
        },
      ],
      { locked },
    );
    return { answerTokens, limited, tokens, cost, day };
  }

  /**
   * Replaces the reservation of the answer's latest usage row by its real usage, once: a row
   * already settled is left alone (two instances ending the same answer settle it once).
   */
  async settle(
    trx: ChatDb,
    messageId: number,
    /** Undefined when unknown (an answer whose writer died): the estimate made at reservation. */
    reportedPromptTokens: number | undefined,
    completionTokens: number,
    estimated: boolean,
    /** Where the counters' bump is left for the transaction's closing (DeferredBumps), if so. */
    deferred?: CounterBump[],
  ): Promise<void> {
    const row = await trx
      .selectFrom('chatUsage')
      .select([
        'id',
        'memberId',
        'roomId',
        'day',
        'reservedTokens',
        'reservedCost',
        'promptPrice',
        'completionPrice',
        'settled',
        'promptTokens',
      ])
      .where('messageId', '=', messageId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return;
    const promptTokens = reportedPromptTokens ?? row.promptTokens;
    const cost =
      costOf(promptTokens, row.promptPrice) + costOf(completionTokens, row.completionPrice);
    const { numUpdatedRows } = await trx
      .updateTable('chatUsage')
      .set({
        promptTokens,
        completionTokens,
        estimated: estimated ? 1 : 0,
        cost,
        settled: 1,
      })
      .where('id', '=', row.id)
      .where('settled', '=', 0)
      .executeTakeFirst();
    if (Number(numUpdatedRows) === 0) return;
    const bump = {
      memberId: row.memberId,
      roomId: row.roomId,
      day: row.day,
      by: {
        tokens: promptTokens + completionTokens,
        cost,
        reservedTokens: -row.reservedTokens,
        reservedCost: -row.reservedCost,
      },
    };
    if (deferred) deferred.push(bump);
    else await bumpCounters(trx, [bump]);
  }

  /**
   * Every limit that applies to the member in the room, with what is used, held and left, and
   * (given its need) whether the next question fits, by the reservation's own computation.
   */
  async view(
    db: ChatDb,
    memberId: number,
    roomId: number,
    member: ChatQuota,
    room: ChatBudget,
    need?: Need,
  ): Promise<BudgetView> {
    const now = this.now();
    const counters = countersOf(memberId, roomId, member, room, utcDay(now));
    const rows = await db
      .selectFrom('chatBudgetCounters')
      .selectAll()
      .where(rowsOf(counters))
      .execute();
    const states = statesOf(
      counters,
      new Map(rows.map((r) => [keyOf(r.scope, r.scopeId, r.period), r])),
      false,
    );
    const lines: BudgetLine[] = [];
    for (const state of states) {
      for (const unit of ['messages', 'tokens', 'cost'] as const) {
        const limit = state.limits[unit];
        if (limit === 0) continue;
        const used = state.used[unit];
        const reserved = unit === 'messages' ? 0 : state.reserved[unit];
        const left = Math.max(0, limit - used - reserved);
        const shown = unit === 'cost' ? fromMicros : (n: number) => n;
        lines.push({
          scope: state.scope,
          period: state.period,
          unit,
          limit: shown(limit),
          used: shown(used),
          reserved: shown(reserved),
          left: shown(left),
          resetsAt: resetsAt(state.period, now),
        });
      }
    }
    if (!need) return { lines };
    const fit = fitNext(states, need);
    return {
      lines,
      next: fit.tightest ? { ...fit, resetsAt: resetsAt(fit.tightest.period, now) } : fit,
    };
  }
}
