import { z } from 'zod';
import { maxImagesPerMessage, maxMessageLength, messagePageSize } from './chat-limits';
import {
  bigIntField,
  decimalField,
  int32Max,
  intField,
  recordId,
  recordIdOrZero,
  textField,
} from './fields';

export { maxImagesPerMessage, maxMessageLength, messagePageSize };

/**
 * AIGC chat rooms (SPEC 3.9, 4.2, 7.4; DESIGN 8): providers and models, rooms, conversations,
 * messages, streaming and usage. Member calls live under `/api/aigc/`, admin calls under
 * `/admin/api/aigc/`.
 */

const id = recordId;
/** 0 means "new" in save calls. */
const idOrNew = recordIdOrZero;
const flag = z.boolean();
const text = (max: number) => textField().max(max, `at most ${max} characters`);
const requiredText = (max: number) =>
  textField().trim().min(1, 'is required').max(max, `at most ${max} characters`);
const sort = intField(-1_000_000, 1_000_000);
/** A stored file path (`/data/...`) or an address typed by hand in the picker. */
const mediaPath = text(1000);

export const idRequest = z.strictObject({ id });
export type IdRequest = z.infer<typeof idRequest>;

// ---------------------------------------------------------------------------------------------
// Providers and models (admin, rule `aigc/model`)

export const providerSaveRequest = z.strictObject({
  id: idOrNew,
  name: requiredText(100),
  baseUrl: textField()
    .trim()
    .max(500)
    .refine((v) => /^https?:\/\/[^/\s]+/i.test(v) && URL.canParse(v), 'expected an http(s) URL')
    .transform((v) => v.replace(/\/+$/, '')),
  /** Omitted keeps the stored key; an empty string removes it. */
  apiKey: text(1000).optional(),
});
export type ProviderSaveRequest = z.input<typeof providerSaveRequest>;

export const providerTestRequest = z.strictObject({
  /** A saved provider; its stored key is used when `apiKey` is omitted. */
  id: idOrNew.default(0),
  baseUrl: textField().trim().max(500).optional(),
  apiKey: text(1000).optional(),
  /** Model asked for a one-token completion when the provider has no model list. */
  model: text(200).optional(),
});
export type ProviderTestRequest = z.input<typeof providerTestRequest>;

export interface ProviderTestResponse {
  /** How the connection was proven: the model list or a tiny completion. */
  method: 'models' | 'completion';
  models: string[];
  latencyMs: number;
}

export const modelSaveRequest = z.strictObject({
  id: idOrNew,
  providerId: id,
  /** The model id the provider knows, e.g. `gpt-4o-mini`. */
  name: requiredText(200),
  /** What members see. */
  title: requiredText(100),
  vision: flag.default(false),
  contextLength: intField(0, 10_000_000).default(0),
  enabled: flag.default(true),
  sort: sort.default(0),
});
export type ModelSaveRequest = z.input<typeof modelSaveRequest>;

export interface ModelRecord {
  id: number;
  providerId: number;
  name: string;
  title: string;
  vision: boolean;
  contextLength: number;
  enabled: boolean;
  sort: number;
}

export interface ProviderRecord {
  id: number;
  name: string;
  baseUrl: string;
  /** The key itself never leaves the server. */
  hasKey: boolean;
  /** The key's last characters behind a mask, e.g. `••••3f9a`; empty without a key. */
  keyHint: string;
  models: ModelRecord[];
  createdAt: number;
  updatedAt: number;
}

// ---------------------------------------------------------------------------------------------
// Rooms (admin, rule `aigc/chat_room`)

/** Generation parameters a room may set; anything else is refused. */
export const generationParams = z.strictObject({
  temperature: decimalField(0, 2).optional(),
  top_p: decimalField(0, 1).optional(),
  max_tokens: intField(1, 1_000_000).optional(),
  presence_penalty: decimalField(-2, 2).optional(),
  frequency_penalty: decimalField(-2, 2).optional(),
  /** Kept in the room's JSON params, not a column: any integer JavaScript holds exactly. */
  seed: bigIntField(Number.MIN_SAFE_INTEGER).optional(),
  stop: z.union([text(100), z.array(text(100)).max(4)]).optional(),
});
export type GenerationParams = z.infer<typeof generationParams>;

export const suggestedPrompt = z.strictObject({ name: text(100), value: text(4000) });
export type SuggestedPrompt = z.infer<typeof suggestedPrompt>;

export const roomSaveRequest = z.strictObject({
  id: idOrNew,
  title: requiredText(100),
  cover: mediaPath.default(''),
  /** Rich-text HTML; sanitised on save. */
  description: text(100_000).default(''),
  /** 0: no model yet. */
  modelId: recordIdOrZero.default(0),
  systemPrompt: text(20_000).default(''),
  params: generationParams.default({}),
  prompts: z.array(suggestedPrompt).max(20, 'at most 20 suggested prompts').default([]),
  introVideo: mediaPath.default(''),
  introAudio: mediaPath.default(''),
  enabled: flag.default(true),
  sort: sort.default(0),
});
export type RoomSaveRequest = z.input<typeof roomSaveRequest>;

export const roomSortRequest = z.strictObject({
  /** Room ids in their new order; each gets its position as sort. */
  ids: z.array(id).min(1).max(1000),
});

export const roomEnableRequest = z.strictObject({ id, enabled: flag });

export interface AdminRoomRecord {
  id: number;
  title: string;
  cover: string;
  description: string;
  modelId: number;
  /** Title of the model, empty when none is set or it was deleted. */
  modelTitle: string;
  systemPrompt: string;
  params: GenerationParams;
  prompts: SuggestedPrompt[];
  introVideo: string;
  introAudio: string;
  enabled: boolean;
  sort: number;
  createdAt: number;
  updatedAt: number;
}

/** A model as the room editor offers it. */
export interface ModelOption {
  id: number;
  title: string;
  name: string;
  providerName: string;
  vision: boolean;
  enabled: boolean;
}

// ---------------------------------------------------------------------------------------------
// Rooms as members see them (SPEC 7.4: `aigc/chat_room/all` answers `data.records`)

export interface RoomRecord {
  id: number;
  title: string;
  cover: string;
  description: string;
  prompts: SuggestedPrompt[];
  introVideo: string;
  introAudio: string;
  sort: number;
  /** null when the room has no enabled model: members can read it but not chat. */
  model: { title: string; vision: boolean } | null;
}

export interface RecordsResponse<T> {
  records: T[];
}

// ---------------------------------------------------------------------------------------------
// Conversations and messages (members)

export const conversationListRequest = z.strictObject({ roomId: id });
export const conversationCreateRequest = z.strictObject({
  roomId: id,
  title: textField().trim().max(100).optional(),
});
export const conversationRenameRequest = z.strictObject({ id, title: requiredText(100) });

export interface ConversationRecord {
  id: number;
  roomId: number;
  title: string;
  createdAt: number;
  updatedAt: number;
}

export const messageStatuses = ['done', 'streaming', 'stopped', 'error', 'interrupted'] as const;
export type MessageStatus = (typeof messageStatuses)[number];

export interface MessageRecord {
  id: number;
  conversationId: number;
  role: 'user' | 'assistant';
  content: string;
  /** Image paths attached to a user message. */
  images: string[];
  status: MessageStatus;
  /** Why an answer failed, for status 'error' or 'interrupted'. */
  error: string;
  promptTokens: number;
  completionTokens: number;
  /** True when the provider gave no usage and the counts are estimates. */
  tokensEstimated: boolean;
  createdAt: number;
  updatedAt: number;
}

export const messageListRequest = z.strictObject({
  conversationId: id,
  /** Cursor: only messages older than this id. Omitted: the newest page. */
  before: id.optional(),
  limit: intField(1, 100).default(messagePageSize),
});

export interface MessageListResponse {
  /** Oldest first within the page; pages walk from the newest backwards. */
  records: MessageRecord[];
  hasMore: boolean;
}

export const chatSendRequest = z.strictObject({
  conversationId: id,
  content: textField()
    .trim()
    .min(1, 'type a message')
    .max(maxMessageLength, `at most ${maxMessageLength} characters`),
  images: z
    .array(text(1000))
    .max(maxImagesPerMessage, `at most ${maxImagesPerMessage} images`)
    .default([]),
});
export type ChatSendRequest = z.input<typeof chatSendRequest>;

export interface ChatSendResponse {
  userMessage: MessageRecord;
  /** Status 'streaming': read it with `aigc/chat/stream`. */
  assistantMessage: MessageRecord;
}

export const chatStreamRequest = z.strictObject({
  messageId: id,
  /** How much of the content the client already has (string length). */
  offset: intField(0, int32Max).default(0),
});

export const messageIdRequest = z.strictObject({ messageId: id });

/**
 * Events of the `aigc/chat/stream` SSE body. `delta.offset` is where `text` starts in the
 * message content: a client appends it when offset equals its length, so nothing is missed or
 * repeated; `seq` grows with every delta of the generation.
 */
export interface StreamDelta {
  seq: number;
  offset: number;
  text: string;
}
export interface StreamUsage {
  promptTokens: number;
  completionTokens: number;
  estimated: boolean;
}
export interface StreamDone {
  status: 'done' | 'stopped';
  usage: StreamUsage;
}
export interface StreamError {
  status: 'error' | 'interrupted';
  msg: string;
}

// ---------------------------------------------------------------------------------------------
// Quotas and usage (admin, rule `aigc/usage`)

export const chatQuota = z.strictObject({
  /** Answers a member may ask for per day (UTC); 0: no limit. */
  messagesPerDay: intField(0, 1_000_000),
  /** Tokens (prompt + answer) a member may use per day (UTC); 0: no limit. */
  tokensPerDay: intField(0, 1_000_000_000),
  /** Burst limit per member per minute; 0: no limit. */
  messagesPerMinute: intField(0, 10_000).default(20),
});
export type ChatQuota = z.infer<typeof chatQuota>;

export const defaultChatQuota: ChatQuota = {
  messagesPerDay: 200,
  tokensPerDay: 0,
  messagesPerMinute: 20,
};

const day = textField().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

export const usageRequest = z.strictObject({
  from: day,
  to: day,
  roomId: recordIdOrZero.default(0),
  memberId: recordIdOrZero.default(0),
});
export type UsageRequest = z.input<typeof usageRequest>;

export interface UsageTotals {
  messages: number;
  promptTokens: number;
  completionTokens: number;
  tokens: number;
}

export interface UsageResponse {
  totals: UsageTotals;
  byDay: (UsageTotals & { day: string })[];
  byRoom: (UsageTotals & { roomId: number; title: string })[];
  byMember: (UsageTotals & { memberId: number; username: string })[];
}
