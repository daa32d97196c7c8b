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

/**
 * Whether the next question fits (issue 28, point 5), by the computation the send's reservation
 * refuses with: about how many questions like it fit, each holding the most it may cost.
 */
export const nextQuestion = z.strictObject({
  /** 0: the next question is refused; null: no limit applies. */
  questions: count.nullable(),
  /** The limit allowing the fewest (the refusing one when 0), and when its period ends. */
  scope: z.enum(['member', 'room']).optional(),
  period: z.enum(['day', 'month']).optional(),
  resetsAt: count.optional(),
});

export const memberBudgetAnswer = z.strictObject({
  lines: z.array(budgetLine),
  /** Absent when no answer can be asked for (the room has no model). */
  next: nextQuestion.optional(),
});

export type BudgetLine = z.infer<typeof budgetLine>;
export type MemberBudget = z.infer<typeof memberBudgetAnswer>;
export type NextQuestion = z.infer<typeof nextQuestion>;
