import { z } from 'zod';
import { emptyRequest } from './auth';
import { defineCalls, type EventOf } from './call';
import { isSiteAddress } from './site-settings';
import {
  adminRoomRecord,
  chatQuotaAnswer,
  chatSendResponse,
  conversationHit,
  conversationRecord,
  messageListResponse,
  messageRecord,
  messageStatuses,
  modelOption,
  modelRecord,
  providerRecord,
  providerModelsResponse,
  providerTestResponse,
  records,
  roomRecord,
  type streamDelta,
  type streamDone,
  type streamError,
  streamEvents,
  type streamUsage,
  usageResponse,
  type usageTotalsAnswer,
} from './chat.answers';
import { chatBudget, noBudget, tokenPrice } from './chat-budget';
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
const text = (max: number) => textField().max(max);
const requiredText = (max: number) => textField().trim().min(1).max(max);
const sort = intField(-1_000_000, 1_000_000);
/** A stored file path (`/data/...`) or an address typed by hand in the picker. */
const mediaPath = text(1000);

/** A file members may download from a room: a site path or an http(s) address, never javascript:. */
const roomDownload = text(1000).trim().min(1).refine(isSiteAddress, 'chat.downloadAddress');
export const roomDownloadsMax = 20;

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
    .refine((v) => /^https?:\/\/[^/\s]+/i.test(v) && URL.canParse(v), 'validation.url')
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

export type ProviderTestResponse = z.infer<typeof providerTestResponse>;

export const modelSaveRequest = z.strictObject({
  id: idOrNew,
  providerId: id,
  /** The model id the provider knows, e.g. `gpt-4o-mini`. */
  name: requiredText(200),
  /** What members see. */
  title: requiredText(100),
  vision: flag.default(false),
  contextLength: intField(0, 10_000_000).default(0),
  /** Prices per million tokens, in the site's currency: what cost budgets count. */
  promptPrice: tokenPrice,
  completionPrice: tokenPrice,
  enabled: flag.default(true),
  sort: sort.default(0),
});
export type ModelSaveRequest = z.input<typeof modelSaveRequest>;

export type ModelRecord = z.infer<typeof modelRecord>;

export type ProviderRecord = z.infer<typeof providerRecord>;

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
  prompts: z.array(suggestedPrompt).max(20).default([]),
  introVideo: mediaPath.default(''),
  introAudio: mediaPath.default(''),
  downloads: z.array(roomDownload).max(roomDownloadsMax).default([]),
  /** The whole room's budget, shared by everyone in it. */
  budget: chatBudget.default(noBudget),
  enabled: flag.default(true),
  sort: sort.default(0),
});
export type RoomSaveRequest = z.input<typeof roomSaveRequest>;

export const roomSortRequest = z.strictObject({
  /** Room ids in their new order; each gets its position as sort. */
  ids: z.array(id).min(1).max(1000),
});

export const roomEnableRequest = z.strictObject({ id, enabled: flag });

export type AdminRoomRecord = z.infer<typeof adminRoomRecord>;

/** A model as the room editor offers it. */
export type ModelOption = z.infer<typeof modelOption>;

// ---------------------------------------------------------------------------------------------
// Rooms as members see them (SPEC 7.4: `aigc/chat_room/all` answers `data.records`)

export type RoomRecord = z.infer<typeof roomRecord>;

export interface RecordsResponse<T> {
  records: T[];
}

// ---------------------------------------------------------------------------------------------
// Conversations and messages (members)

export const conversationListRequest = z.strictObject({ roomId: id });
export const conversationSearchRequest = z.strictObject({
  roomId: id,
  keywords: requiredText(100),
});
export const conversationCreateRequest = z.strictObject({
  roomId: id,
  title: textField().trim().max(100).optional(),
});
export const conversationRenameRequest = z.strictObject({ id, title: requiredText(100) });

export type ConversationRecord = z.infer<typeof conversationRecord>;
export type ConversationHit = z.infer<typeof conversationHit>;

export { messageStatuses };
export type MessageStatus = (typeof messageStatuses)[number];

export type MessageRecord = z.infer<typeof messageRecord>;

export const messageListRequest = z.strictObject({
  conversationId: id,
  /** Cursor: only messages older than this id. Omitted: the newest page. */
  before: id.optional(),
  limit: intField(1, 100).default(messagePageSize),
});

export type MessageListResponse = z.infer<typeof messageListResponse>;

/** What a member types to the model. */
const messageContent = textField().trim().min(1).max(maxMessageLength);

export const chatSendRequest = z.strictObject({
  /** 0: a new conversation in `roomId`, created with this question (not when it is refused). */
  conversationId: recordIdOrZero,
  roomId: recordIdOrZero.default(0),
  content: messageContent,
  images: z.array(text(1000)).max(maxImagesPerMessage).default([]),
});
export type ChatSendRequest = z.input<typeof chatSendRequest>;

export type ChatSendResponse = z.infer<typeof chatSendResponse>;

export const chatStreamRequest = z.strictObject({
  messageId: id,
  /** How much of the content the client already has (string length). */
  offset: intField(0, int32Max).default(0),
});

export const messageIdRequest = z.strictObject({ messageId: id });
/** A question asked again in other words: a new branch beside the old one (SPEC 2.6). */
export const chatEditRequest = z.strictObject({ messageId: id, content: messageContent });

/**
 * Events of the `aigc/chat/stream` SSE body. `delta.offset` is where `text` starts in the
 * message content: a client appends it when offset equals its length, so nothing is missed or
 * repeated; `seq` grows with every delta of the generation.
 */
export type StreamDelta = z.infer<typeof streamDelta>;
export type StreamUsage = z.infer<typeof streamUsage>;
export type StreamDone = z.infer<typeof streamDone>;
export type StreamError = z.infer<typeof streamError>;
/** One event of the `aigc/chat/stream` body, as declared. */
export type StreamEvent = EventOf<(typeof chatCalls)['aigc/chat/stream']>;

// ---------------------------------------------------------------------------------------------
// Quotas and usage (admin, rule `aigc/usage`)

export const chatQuota = z.strictObject({
  /** Answers a member may ask for per day (UTC); 0: no limit. */
  messagesPerDay: intField(0, 1_000_000),
  /** Burst limit per member per minute; 0: no limit. */
  messagesPerMinute: intField(0, 10_000).default(20),
  /** Each member's budget: tokens (prompt + answer) or cost per day or month; 0: no limit. */
  ...chatBudget.shape,
});
export type ChatQuota = z.infer<typeof chatQuota>;

export const defaultChatQuota: ChatQuota = {
  messagesPerDay: 200,
  messagesPerMinute: 20,
  ...noBudget,
};

const day = textField().regex(/^\d{4}-\d{2}-\d{2}$/, 'chat.notADay');

export const usageRequest = z.strictObject({
  from: day,
  to: day,
  roomId: recordIdOrZero.default(0),
  memberId: recordIdOrZero.default(0),
});
export type UsageRequest = z.input<typeof usageRequest>;

export type UsageTotals = z.infer<typeof usageTotalsAnswer>;

export type UsageResponse = z.infer<typeof usageResponse>;

// ---------------------------------------------------------------------------------------------
// The calls

export const aiModelRule = 'aigc/model';
export const chatRoomRule = 'aigc/chat_room';
export const usageRule = 'aigc/usage';

/** Admin management of providers and models. */
export const aiCalls = defineCalls('admin', {
  'aigc/provider/list': {
    rule: aiModelRule,
    request: emptyRequest,
    answer: records(providerRecord),
  },
  'aigc/provider/save': { rule: aiModelRule, request: providerSaveRequest, answer: providerRecord },
  'aigc/provider/delete': { rule: aiModelRule, request: idRequest, answer: z.null() },
  'aigc/provider/test': {
    rule: aiModelRule,
    request: providerTestRequest,
    answer: providerTestResponse,
  },
  /** The model ids a saved provider lists (`GET /v1/models`), for the "Add model" dialog. */
  'aigc/provider/models': {
    rule: aiModelRule,
    request: idRequest,
    answer: providerModelsResponse,
  },
  'aigc/model/save': { rule: aiModelRule, request: modelSaveRequest, answer: modelRecord },
  'aigc/model/delete': { rule: aiModelRule, request: idRequest, answer: z.null() },
});

export const roomsAdminCalls = defineCalls('admin', {
  'aigc/chat_room/list': {
    rule: chatRoomRule,
    request: emptyRequest,
    answer: records(adminRoomRecord),
  },
  'aigc/chat_room/models': {
    rule: chatRoomRule,
    request: emptyRequest,
    answer: records(modelOption),
  },
  'aigc/chat_room/save': { rule: chatRoomRule, request: roomSaveRequest, answer: adminRoomRecord },
  'aigc/chat_room/enable': { rule: chatRoomRule, request: roomEnableRequest, answer: z.null() },
  'aigc/chat_room/sort': { rule: chatRoomRule, request: roomSortRequest, answer: z.null() },
  'aigc/chat_room/delete': { rule: chatRoomRule, request: idRequest, answer: z.null() },
});

/** The room list is the public face of the site (SPEC 7.4): visitors read it too. */
export const roomsMemberCalls = defineCalls('member', {
  'aigc/chat_room/all': { public: true, request: emptyRequest, answer: records(roomRecord) },
  'aigc/chat_room/get': { public: true, request: idRequest, answer: roomRecord },
});

export const usageCalls = defineCalls('admin', {
  'aigc/usage/summary': { rule: usageRule, request: usageRequest, answer: usageResponse },
  'aigc/usage/quota': { rule: usageRule, request: emptyRequest, answer: chatQuotaAnswer },
  'aigc/usage/quota_save': { rule: usageRule, request: chatQuota, answer: chatQuotaAnswer },
});

/** A member's conversations, messages and the answer stream (DESIGN 8). */
export const chatCalls = defineCalls('member', {
  'aigc/conversation/list': {
    request: conversationListRequest,
    answer: records(conversationRecord),
  },
  /** The member's conversations in a room whose title or messages hold the words (SPEC 2.6). */
  'aigc/conversation/search': {
    request: conversationSearchRequest,
    answer: records(conversationHit),
  },
  'aigc/conversation/create': { request: conversationCreateRequest, answer: conversationRecord },
  'aigc/conversation/rename': { request: conversationRenameRequest, answer: conversationRecord },
  'aigc/conversation/delete': { request: idRequest, answer: z.null() },
  'aigc/message/list': { request: messageListRequest, answer: messageListResponse },
  'aigc/chat/send': { request: chatSendRequest, answer: chatSendResponse },
  'aigc/chat/stop': { request: messageIdRequest, answer: messageRecord },
  'aigc/chat/regenerate': { request: messageIdRequest, answer: messageRecord },
  'aigc/chat/edit': { request: chatEditRequest, answer: chatSendResponse },
  /** Shows the branch through this message (a version of a question), at its newest message. */
  'aigc/conversation/branch': { request: messageIdRequest, answer: z.null() },
  /**
   * A refusal answers an envelope; otherwise the answer is an event stream of `events`
   * (`streamEvents`: delta, done, error; chat.answers.ts), never an envelope.
   */
  'aigc/chat/stream': { request: chatStreamRequest, answer: z.null(), events: streamEvents },
});
