import { z } from 'zod';
import { epochMs, id } from './paging.answers';
import { messageStatuses } from './chat.answers';

/** What the export, import and share calls answer (issue 18, points 4 and 5). */

export const chatImportResponse = z.strictObject({
  /** The new conversations, in the file's order. */
  conversations: z.array(z.strictObject({ id, roomId: id, title: z.string() })),
  messages: z.number().int().nonnegative(),
  /** Image paths left out because they are not in the member's own image library. */
  droppedImages: z.array(z.string()),
});

export const chatShareRecord = z.strictObject({
  id,
  /** The secret part of the link: `#/share/<token>`. */
  token: z.string(),
  conversationId: id,
  /** The conversation's title when it was shared. */
  title: z.string(),
  roomTitle: z.string(),
  messages: z.number().int().nonnegative(),
  /** Anyone with the link may view it without signing in (while the site allows it). */
  public: z.boolean(),
  createdAt: epochMs,
});

export const chatShareList = z.strictObject({
  records: z.array(chatShareRecord),
  /** Whether the site lets members make public links now. */
  publicLinks: z.boolean(),
});

export const sharedMessage = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  images: z.array(z.string()),
  status: z.enum(messageStatuses),
  createdAt: epochMs,
});

/** A shared snapshot: the shown branch when the link was made, nothing after. */
export const chatShareView = z.strictObject({
  title: z.string(),
  roomId: id,
  roomTitle: z.string(),
  /** When the snapshot was taken. */
  sharedAt: epochMs,
  messages: z.array(sharedMessage),
});
