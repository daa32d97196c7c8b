import { MICROS } from '@atrium/shared/contract/chat-budget';

/**
 * Whether the next question fits the budgets, and about how many more would (issue 28, point 5):
 * ONE computation, used by the send's reservation (which refuses what does not fit) and by the
 * footer under the message box (which says what is left), so the two cannot disagree.
 */

export type Scope = 'member' | 'room';
export type Period = 'day' | 'month';
export type Unit = 'messages' | 'tokens' | 'cost';

/** An answer allowed fewer tokens than this is refused rather than cut to nothing. */
export const MIN_ANSWER_TOKENS = 16;

/** Millionths of the currency that `tokens` cost at `pricePerMillion` (rounded up). */
export const costOf = (tokens: number, pricePerMillion: number): number =>
  Math.ceil((tokens * pricePerMillion) / MICROS);

/** One counter with its limits (0: none; cost in millionths) and what is used and held of it. */
export interface CounterState {
  scope: Scope;
  period: Period;
  limits: Record<Unit, number>;
  /** Messages counted (held ones included), tokens and cost settled. */
  used: Record<Unit, number>;
  /** Held by answers being written. */
  reserved: { tokens: number; cost: number };
}

/** What the next question needs: its prompt's upper bound, its answer's max_tokens, prices. */
export interface Need {
  promptTokens: number;
  /** The answer's max_tokens before any budget. */
  answerTokens: number;
  /** Per million tokens, in millionths of the currency. */
  promptPrice: number;
  completionPrice: number;
}

/** The limit a question breaks: `left` is what remains of it (0: used up). */
export interface Breach {
  scope: Scope;
  period: Period;
  unit: Unit;
  limit: number;
  left: number;
}

export interface Fit {
  /** The answer's max_tokens, lowered to what the budgets leave. */
  answerTokens: number;
  /** Set when the question does not fit: then `questions` is 0. */
  breach?: Breach;
  /**
   * About how many questions like this one fit, each holding its whole reservation (what it may
   * cost at most), the last one with its answer lowered; `null` when no limit applies. At least
   * 1 exactly when the question fits.
   */
  questions: number | null;
  /** The counter that allows the fewest (the refusing one when it does not fit). */
  tightest?: { scope: Scope; period: Period };
}

/** How many reservations of `full` fit in `left`, the last one lowered down to `least`. */
function howMany(left: number, full: number, least: number): number {
  if (left < least) return 0;
  if (full <= 0) return Number.POSITIVE_INFINITY;
  const whole = Math.floor(left / full);
  return whole + (left - whole * full >= least ? 1 : 0);
}

/** Whether the next question fits every counter, checked in the order the counters lock. */
export function fitNext(counters: readonly CounterState[], need: Need): Fit {
  const promptCost = costOf(need.promptTokens, need.promptPrice);
  const fullCost = promptCost + costOf(need.answerTokens, need.completionPrice);
  const leastCost = promptCost + Math.ceil((MIN_ANSWER_TOKENS * need.completionPrice) / MICROS);
  let answerTokens = need.answerTokens;
  let questions = Number.POSITIVE_INFINITY;
  let tightest: Fit['tightest'];
  const count = (counter: CounterState, n: number) => {
    if (n < questions) {
      questions = n;
      tightest = { scope: counter.scope, period: counter.period };
    }
  };
  const refuse = (counter: CounterState, unit: Unit, left: number): Fit => ({
    answerTokens,
    breach: {
      scope: counter.scope,
      period: counter.period,
      unit,
      limit: counter.limits[unit],
      left: Math.max(0, left),
    },
    questions: 0,
    tightest: { scope: counter.scope, period: counter.period },
  });
  for (const counter of counters) {
    const { limits, used, reserved } = counter;
    if (limits.messages > 0) {
      const left = limits.messages - used.messages;
      if (left < 1) return refuse(counter, 'messages', 0);
      count(counter, left);
    }
    if (limits.tokens > 0) {
      const left = limits.tokens - used.tokens - reserved.tokens;
      answerTokens = Math.min(answerTokens, left - need.promptTokens);
      if (answerTokens < MIN_ANSWER_TOKENS) return refuse(counter, 'tokens', left);
      count(
        counter,
        howMany(left, need.promptTokens + need.answerTokens, need.promptTokens + MIN_ANSWER_TOKENS),
      );
    }
    if (limits.cost > 0) {
      const left = limits.cost - used.cost - reserved.cost;
      if (need.completionPrice > 0)
        answerTokens = Math.min(
          answerTokens,
          Math.floor(((left - promptCost) * MICROS) / need.completionPrice),
        );
      if (left - promptCost < 0 || answerTokens < MIN_ANSWER_TOKENS)
        return refuse(counter, 'cost', left);
      count(counter, howMany(left, fullCost, leastCost));
    }
  }
  return {
    answerTokens,
    questions: Number.isFinite(questions) ? Math.max(1, questions) : null,
    ...(tightest ? { tightest } : {}),
  };
}
