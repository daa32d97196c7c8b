import { z } from 'zod';
import { defineCalls } from './call';
import {
  chatRevealResponse,
  chatSearchResponse,
  type matchRange,
  type messageHit,
  type titleHit,
} from './chat-search.answers';
import { intField, recordId, textField } from './fields';

/**
 * Search over all of a member's conversations (issue 18): titles and message content, across
 * every room (or one), newest first, each hit with where the words are, as offsets (the client
 * marks them; the server sends no HTML).
 */

/** Words of the search: at most this many, each a substring that must occur. */
export const maxSearchWords = 8;
export const searchPageSize = 20;

export const chatSearchRequest = z.strictObject({
  keywords: textField()
    .trim()
    .min(1)
    .max(100)
    .refine((value) => value.split(/\s+/).length <= maxSearchWords, 'chat.searchTooManyWords'),
  /** Only this room's conversations; omitted: all rooms. */
  roomId: recordId.optional(),
  /** Cursor: only messages older than this one (the `next` of the page before). */
  before: recordId.optional(),
  limit: intField(1, 50).default(searchPageSize),
});

/** Opens a message found by search: its branch is shown when it was not. */
export const chatRevealRequest = z.strictObject({ messageId: recordId });

export type ChatSearchResponse = z.infer<typeof chatSearchResponse>;
export type ChatRevealResponse = z.infer<typeof chatRevealResponse>;
export type TitleHit = z.infer<typeof titleHit>;
export type MessageHit = z.infer<typeof messageHit>;
export type MatchRange = z.infer<typeof matchRange>;

export const chatSearchCalls = defineCalls('member', {
  /** The member's messages and conversation titles holding the words, in every room or one. */
  'aigc/conversation/search_all': { request: chatSearchRequest, answer: chatSearchResponse },
  /** Where a found message is: its conversation and room; shows its branch if it was hidden. */
  'aigc/conversation/reveal': { request: chatRevealRequest, answer: chatRevealResponse },
});
