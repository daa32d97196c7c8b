/**
 * Chat limits the browser needs too, kept apart from the zod contract (contract/chat.ts) so
 * importing them does not put zod in the page's bundle.
 */

/** Messages per page of `aigc/message/list`. */
export const messagePageSize = 30;
export const maxImagesPerMessage = 4;
export const maxMessageLength = 20_000;
