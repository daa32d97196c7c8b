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
