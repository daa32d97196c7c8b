import { z } from 'zod';

/** What `aigc/chat/budget` answers (issue 18). */

const count = z.number().int().nonnegative();

/** One limit that applies to the member in a room, with what is left of it. */
export const budgetLine = z.strictObject({
  /** Whose limit: the member's own, or the whole room's (shared by everyone in it). */
  scope: z.enum(['member', 'room']),
  period: z.enum(['day', 'month']),
  unit: z.enum(['messages', 'tokens', 'cost']),
  /** Messages, tokens, or the currency (decimal). */
  limit: z.number().nonnegative(),
  used: z.number().nonnegative(),
  /** Held by answers being written right now; settled on their real usage when they end. */
  reserved: z.number().nonnegative(),
  left: z.number().nonnegative(),
  /** When the period ends (00:00 UTC of the next day or month), epoch ms. */
  resetsAt: count,
});

export const memberBudgetAnswer = z.strictObject({ lines: z.array(budgetLine) });

export type BudgetLine = z.infer<typeof budgetLine>;
export type MemberBudget = z.infer<typeof memberBudgetAnswer>;
