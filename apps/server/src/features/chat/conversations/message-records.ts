import type { ConversationRecord, MessageRecord } from '@atrium/shared/contract/chat';
import { parseImages, type ConversationRow, type MessageRow } from '../chat.tables';

/** Stored conversations and messages as the API answers them. */

export const toConversation = (row: ConversationRow): ConversationRecord => ({
  id: row.id,
  roomId: row.roomId,
  title: row.title,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const toMessage = (row: MessageRow): MessageRecord => ({
  id: row.id,
  conversationId: row.conversationId,
  role: row.role,
  content: row.content,
  images: parseImages(row.images),
  status: row.status,
  error: row.error,
  promptTokens: row.promptTokens,
  completionTokens: row.completionTokens,
  tokensEstimated: row.tokensEstimated === 1,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
