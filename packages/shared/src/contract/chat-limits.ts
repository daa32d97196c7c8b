/**
 * Chat limits the browser needs too, kept apart from the zod contract (contract/chat.ts) so
 * importing them does not put zod in the page's bundle.
 */

/** Messages per page of `aigc/message/list`. */
export const messagePageSize = 30;
export const maxImagesPerMessage = 4;
export const maxMessageLength = 20_000;

/** The context window (tokens) of a model whose `contextLength` is 0, the admin's "default". */
export const defaultContextTokens = 8192;

/** The context window a model is used with: its own, or the default when it has none (0). */
export function effectiveContextLength(contextLength: number): number {
  return contextLength > 0 ? contextLength : defaultContextTokens;
}

/** Budgets count millionths of the currency: a cost limit keeps at most this many decimals. */
export const costDecimals = 6;

/** How many decimals a number has as written (1e-7: 7; 0.005: 3; 12: 0). */
export function decimalsOf(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const [digits = '', exponent = '0'] = String(Math.abs(value)).split('e');
  const fraction = digits.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}
