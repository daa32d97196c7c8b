import { z } from 'zod';
import { defineCalls } from './call';
import { memberBudgetAnswer } from './chat-budget.answers';
import { costDecimals, decimalsOf, maxImagesPerMessage, maxMessageLength } from './chat-limits';
import { decimalField, intField, recordId, recordIdOrZero, textField } from './fields';

export type { BudgetLine, MemberBudget, NextQuestion } from './chat-budget.answers';

/**
 * Budgets (issue 18): tokens or cost per UTC day or month, for each member (the chat quota
 * setting) and for a whole room (the room's own). 0: no limit. Costs are in the site's currency,
 * at most six decimals; each model has prices per million tokens in the same currency.
 */
/**
 * A cost limit in the currency, kept as typed up to `costDecimals` decimals (counted in
 * millionths); finer is refused with a message naming the precision, never rounded.
 */
const costLimit = decimalField(0, 1_000_000).refine((value) => decimalsOf(value) <= costDecimals, {
  message: 'validation.tooPrecise',
  params: { max: costDecimals },
});

export const chatBudget = z.strictObject({
  tokensPerDay: intField(0, 2_000_000_000).default(0),
  tokensPerMonth: intField(0, 2_000_000_000).default(0),
  costPerDay: costLimit.default(0),
  costPerMonth: costLimit.default(0),
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
  /**
   * What is left of every limit that applies to the member in this room, and whether the next
   * question (the draft being typed, in this conversation; 0: a new one) fits, by the same
   * computation the send's reservation uses.
   */
  'aigc/chat/budget': {
    request: z.strictObject({
      roomId: recordId,
      conversationId: recordIdOrZero.default(0),
      question: textField().max(maxMessageLength).default(''),
      images: intField(0, maxImagesPerMessage).default(0),
    }),
    answer: memberBudgetAnswer,
  },
});
