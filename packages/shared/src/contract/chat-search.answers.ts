import { z } from 'zod';
import { conversationRecord } from './chat.answers';
import { id } from './paging.answers';

/** What the conversation search calls answer (issue 18; requests in chat-search.ts). */

/** [start, end) offsets, in UTF-16 code units (JavaScript string indices), of a match. */
export const matchRange = z.tuple([z.number().int().nonnegative(), z.number().int().positive()]);

const place = {
  conversation: conversationRecord,
  roomTitle: z.string(),
};

/** A conversation whose title holds the words. */
export const titleHit = z.strictObject({
  ...place,
  /** Where the words are in `conversation.title`. */
  ranges: z.array(matchRange),
});

/** A message holding the words. */
export const messageHit = z.strictObject({
  ...place,
  messageId: id,
  role: z.enum(['user', 'assistant']),
  createdAt: z.number().int(),
  /** The message's text around the words, on one line, "…" where it was cut. */
  excerpt: z.string(),
  /** Where the words are in `excerpt`. */
  ranges: z.array(matchRange),
});

export const chatSearchResponse = z.strictObject({
  /** Conversations whose title holds the words, most recently active first: first page only. */
  titles: z.array(titleHit),
  /** Messages holding the words, newest first. */
  records: z.array(messageHit),
  /**
   * The `before` of the next page; null on the last. A page may be short (even empty) and still
   * have a next: one request looks through a bounded number of matches, and "more" carries on.
   */
  next: id.nullable(),
});

export const chatRevealResponse = z.strictObject({
  conversationId: id,
  roomId: id,
  /** The conversation now shows another branch: the one holding the message. */
  switchedBranch: z.boolean(),
});
