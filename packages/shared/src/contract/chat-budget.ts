import { z } from 'zod';
import { defineCalls } from './call';
import { memberBudgetAnswer } from './chat-budget.answers';
import { decimalField, intField, recordId } from './fields';

export type { BudgetLine, MemberBudget } from './chat-budget.answers';

/**
 * Budgets (issue 18): tokens or cost per UTC day or month, for each member (the chat quota
 * setting) and for a whole room (the room's own). 0: no limit. Costs are in the site's currency,
 * at most six decimals; each model has prices per million tokens in the same currency.
 */
export const chatBudget = z.strictObject({
  tokensPerDay: intField(0, 2_000_000_000).default(0),
  tokensPerMonth: intField(0, 2_000_000_000).default(0),
  costPerDay: decimalField(0, 1_000_000).default(0),
  costPerMonth: decimalField(0, 1_000_000).default(0),
});
export type ChatBudget = z.infer<typeof chatBudget>;

export const noBudget: ChatBudget = {
  tokensPerDay: 0,
  tokensPerMonth: 0,
  costPerDay: 0,
  costPerMonth: 0,
};

/** A price per million tokens, in the site's currency. */
export const tokenPrice = decimalField(0, 100_000).default(0);

/** Millionths of the currency: budgets and costs are counted in whole numbers of these. */
export const MICROS = 1_000_000;

export const toMicros = (amount: number): number => Math.round(amount * MICROS);
export const fromMicros = (micros: number): number => micros / MICROS;

export const budgetCalls = defineCalls('member', {
  /** What is left of every limit that applies to the member in this room. */
  'aigc/chat/budget': {
    request: z.strictObject({ roomId: recordId }),
    answer: memberBudgetAnswer,
  },
});
