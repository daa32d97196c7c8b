import type { MessageStatus } from '@atrium/shared/contract/chat';
import { sql, type Generated, type Kysely, type Selectable } from 'kysely';
import type { Database, Db } from '../../db/index';

/** Table shapes of conversations, messages and usage (migration 2026_11_21_4000_chat and later). */

export interface ChatConversationsTable {
  id: Generated<number>;
  roomId: number;
  memberId: number;
  title: string;
  /** The message the shown branch ends at; null: the newest (migration 2026_11_27_3000). */
  leafId: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  conversationId: number;
  /** The message this one follows; null for a conversation's first (migration 2026_11_27_3000). */
  parentId: number | null;
  role: 'user' | 'assistant';
  content: string;
  /** JSON list of image paths. */
  images: string;
  status: MessageStatus;
  error: string;
  modelId: number | null;
  promptTokens: Generated<number>;
  completionTokens: Generated<number>;
  tokensEstimated: Generated<number>;
  seq: Generated<number>;
  /**
   * While `status` is 'streaming': the instance writing it (migration 2026_11_25_1000). The
   * answer is alive exactly as long as that instance's heartbeat.
   */
  writerInstance: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface ChatUsageTable {
  id: Generated<number>;
  memberId: number;
  roomId: number;
  modelId: number;
  messageId: number;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  promptTokens: Generated<number>;
  completionTokens: Generated<number>;
  estimated: Generated<number>;
  /** What the answer reserved of its budgets until it ends (migration 2026_11_30_4000). */
  reservedTokens: Generated<number>;
  /** Millionths of the site's currency, like `cost` and the prices. */
  reservedCost: Generated<number>;
  cost: Generated<number>;
  /** The model's prices per million tokens when the answer was asked for. */
  promptPrice: Generated<number>;
  completionPrice: Generated<number>;
  /** 0 while the reservation is held; 1 once the real usage replaced it. */
  settled: Generated<number>;
  createdAt: number;
}

/** What members and rooms used and hold reserved, per period (`d:YYYY-MM-DD`, `m:YYYY-MM`). */
export interface ChatBudgetCountersTable {
  scope: 'member' | 'room';
  scopeId: number;
  period: string;
  messages: Generated<number>;
  tokens: Generated<number>;
  cost: Generated<number>;
  reservedTokens: Generated<number>;
  reservedCost: Generated<number>;
}

/**
 * Text appended to a streaming answer since its last fold into `chatMessages.content` (migration
 * 2026_12_05_1000): parts with a seq above the row's follow its content, in seq order.
 */
export interface ChatMessagePartsTable {
  messageId: number;
  seq: number;
  text: string;
}

type ChatTables = {
  chatConversations: ChatConversationsTable;
  chatMessages: ChatMessagesTable;
  chatMessageParts: ChatMessagePartsTable;
  chatUsage: ChatUsageTable;
  chatBudgetCounters: ChatBudgetCountersTable;
};

export type ChatSchema = Database & ChatTables;
export type ChatDb = Kysely<ChatSchema>;

export function chatDb(db: Db): ChatDb {
  return db.withTables<ChatTables>();
}

export type ConversationRow = Selectable<ChatConversationsTable>;
export type MessageRow = Selectable<ChatMessagesTable>;

/**
 * The most characters one answer keeps (issue 26): a provider that ignores `max_tokens` and
 * streams without end is cut here, so no answer, stored or listed, grows past it (README).
 */
export const MAX_ANSWER_CHARS = 200_000;

/** The parts of a streaming message not yet folded into its row, for the reads below. */
const unfoldedParts = sql`from chat_message_parts p
  where p.message_id = ${sql.ref('chatMessages.id')} and p.seq > ${sql.ref('chatMessages.seq')}`;
const streaming = sql`${sql.ref('chatMessages.status')} = 'streaming'`;

/**
 * A message's whole stored text: its row's content, and while it streams the parts appended
 * since the last fold (`string_agg … order by`: PostgreSQL, and SQLite since 3.44). An ended
 * message's row holds all of it, and its parts are not read.
 */
export const storedContent = sql<string>`case when ${streaming}
  then ${sql.ref('chatMessages.content')}
    || coalesce((select string_agg(p.text, '' order by p.seq) ${unfoldedParts}), '')
  else ${sql.ref('chatMessages.content')} end`;

/** The seq of a message's stored text (the last part's, while it streams). */
const storedSeq = sql<number>`case when ${streaming}
  then coalesce((select max(p.seq) ${unfoldedParts}), ${sql.ref('chatMessages.seq')})
  else ${sql.ref('chatMessages.seq')} end`.as('seq');

/**
 * A message's text as every read sees it: never longer than an answer may grow (issue 26), also
 * for rows stored before answers were capped, so one such row cannot make a list of 80 MB.
 */
const boundedContent = sql<string>`substr(${storedContent}, 1, ${sql.lit(MAX_ANSWER_CHARS)})`.as(
  'content',
);

/** The columns every read of a whole message takes. */
export const messageColumns = [
  'chatMessages.id',
  'chatMessages.conversationId',
  'chatMessages.parentId',
  'chatMessages.role',
  boundedContent,
  'chatMessages.images',
  'chatMessages.status',
  'chatMessages.error',
  'chatMessages.modelId',
  'chatMessages.promptTokens',
  'chatMessages.completionTokens',
  'chatMessages.tokensEstimated',
  storedSeq,
  'chatMessages.writerInstance',
  'chatMessages.createdAt',
  'chatMessages.updatedAt',
] as const;

/** The images a user message carries (its `images` column: a JSON array of paths). */
export function parseImages(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
