import { z } from 'zod';
import { citationRecord } from './chat-docs.answers';
import { epochMs, id } from './paging.answers';

/** What the AIGC calls answer (DESIGN 8): providers, models, rooms, conversations, usage. */

const count = z.number().int().nonnegative();

const budgetAnswer = {
  tokensPerDay: count,
  tokensPerMonth: count,
  costPerDay: z.number().nonnegative(),
  costPerMonth: z.number().nonnegative(),
};

export const providerModelsResponse = z.strictObject({ models: z.array(z.string()) });

export const providerTestResponse = z.strictObject({
  /** How the connection was proven: the model list or a tiny completion. */
  method: z.enum(['models', 'completion']),
  models: z.array(z.string()),
  latencyMs: z.number().nonnegative(),
});

export const modelRecord = z.strictObject({
  id,
  providerId: id,
  name: z.string(),
  title: z.string(),
  vision: z.boolean(),
  contextLength: count,
  promptPrice: z.number().nonnegative(),
  completionPrice: z.number().nonnegative(),
  enabled: z.boolean(),
  sort: z.number().int(),
});

export const providerRecord = z.strictObject({
  id,
  name: z.string(),
  baseUrl: z.string(),
  /** The key itself never leaves the server. */
  hasKey: z.boolean(),
  /** The key's last characters behind a mask, e.g. `••••3f9a`; empty without a key. */
  keyHint: z.string(),
  models: z.array(modelRecord),
  createdAt: epochMs,
  updatedAt: epochMs,
});

const generationParamsAnswer = z.strictObject({
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  max_tokens: z.number().int().optional(),
  presence_penalty: z.number().optional(),
  frequency_penalty: z.number().optional(),
  seed: z.number().int().optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
});

const suggestedPromptAnswer = z.strictObject({ name: z.string(), value: z.string() });

export const adminRoomRecord = z.strictObject({
  id,
  title: z.string(),
  cover: z.string(),
  description: z.string(),
  modelId: z.number().int().nonnegative(),
  /** Title of the model, empty when none is set or it was deleted. */
  modelTitle: z.string(),
  systemPrompt: z.string(),
  params: generationParamsAnswer,
  prompts: z.array(suggestedPromptAnswer),
  introVideo: z.string(),
  introAudio: z.string(),
  /** Files members may download from the room: paths, shown by the part after the last "/". */
  downloads: z.array(z.string()),
  budget: z.strictObject(budgetAnswer),
  enabled: z.boolean(),
  sort: z.number().int(),
  createdAt: epochMs,
  updatedAt: epochMs,
});

/** A model as the room editor offers it. */
export const modelOption = z.strictObject({
  id,
  title: z.string(),
  name: z.string(),
  providerName: z.string(),
  vision: z.boolean(),
  enabled: z.boolean(),
});

/** A room as members see it (SPEC 7.4). */
export const roomRecord = z.strictObject({
  id,
  title: z.string(),
  cover: z.string(),
  description: z.string(),
  prompts: z.array(suggestedPromptAnswer),
  introVideo: z.string(),
  introAudio: z.string(),
  /** Files members may download from the room: paths, shown by the part after the last "/". */
  downloads: z.array(z.string()),
  sort: z.number().int(),
  /** null when the room has no enabled model: members can read it but not chat. */
  model: z.strictObject({ title: z.string(), vision: z.boolean() }).nullable(),
});

export const conversationRecord = z.strictObject({
  id,
  roomId: id,
  title: z.string(),
  createdAt: epochMs,
  updatedAt: epochMs,
});

/** A conversation found by a search: where the words are, in a line of its messages or none. */
export const conversationHit = z.strictObject({
  conversation: conversationRecord,
  /** Text around the first message holding the words; empty when only the title holds them. */
  excerpt: z.string(),
});

export const messageStatuses = ['done', 'streaming', 'stopped', 'error', 'interrupted'] as const;

export const messageRecord = z.strictObject({
  id,
  conversationId: id,
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** Image paths attached to a user message. */
  images: z.array(z.string()),
  status: z.enum(messageStatuses),
  /** Why an answer failed, for status 'error' or 'interrupted', in the request's language. */
  error: z.string(),
  /** The same as a catalogue message (issue 27): absent when none was stored. */
  errorKey: z.string().optional(),
  errorParams: z.record(z.string(), z.unknown()).optional(),
  promptTokens: count,
  completionTokens: count,
  /** True when the provider gave no usage and the counts are estimates. */
  tokensEstimated: z.boolean(),
  /**
   * A message in more than one version: a question edited, or an answer regenerated. The ids of
   * its versions (same parent, same role), oldest first, this one among them; absent when there
   * is only one.
   */
  versions: z.array(id).optional(),
  /** An answer given passages of the conversation's documents: the ones it cites (chat-docs). */
  citations: z.array(citationRecord).optional(),
  createdAt: epochMs,
  updatedAt: epochMs,
});

export const messageListResponse = z.strictObject({
  /** Oldest first within the page; pages walk from the newest backwards. */
  records: z.array(messageRecord),
  hasMore: z.boolean(),
});

export const chatSendResponse = z.strictObject({
  userMessage: messageRecord,
  /** Status 'streaming': read it with `aigc/chat/stream`. */
  assistantMessage: messageRecord,
});

/**
 * Events of the `aigc/chat/stream` SSE body. `delta.offset` is where `text` starts in the
 * message content: a client appends it when offset equals its length, so nothing is missed or
 * repeated; `seq` grows with every delta of the generation.
 */
export const streamDelta = z.strictObject({ seq: count, offset: count, text: z.string() });
export const streamUsage = z.strictObject({
  promptTokens: count,
  completionTokens: count,
  estimated: z.boolean(),
});
export const streamDone = z.strictObject({
  status: z.enum(['done', 'stopped']),
  usage: streamUsage,
});
export const streamError = z.strictObject({
  status: z.enum(['error', 'interrupted']),
  /** In the request's language; `errorKey` and `errorParams` name it in the catalogue. */
  msg: z.string(),
  errorKey: z.string().optional(),
  errorParams: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The events of the `aigc/chat/stream` body by event name (`event: delta` and so on): text past
 * the client's offset, then either end. Attached to the call's declaration (`events`).
 */
export const streamEvents = { delta: streamDelta, done: streamDone, error: streamError } as const;

export const chatQuotaAnswer = z.strictObject({
  messagesPerDay: count,
  messagesPerMinute: count,
  ...budgetAnswer,
});

const usageTotals = {
  messages: count,
  promptTokens: count,
  completionTokens: count,
  tokens: count,
  /** In the site's currency, at each model's prices when the answers were asked for. */
  cost: z.number().nonnegative(),
};
export const usageTotalsAnswer = z.strictObject(usageTotals);

export const usageResponse = z.strictObject({
  totals: usageTotalsAnswer,
  byDay: z.array(z.strictObject({ ...usageTotals, day: z.string() })),
  byRoom: z.array(z.strictObject({ ...usageTotals, roomId: id, title: z.string() })),
  byMember: z.array(z.strictObject({ ...usageTotals, memberId: id, username: z.string() })),
});

export const records = <T extends z.ZodType>(record: T) =>
  z.strictObject({ records: z.array(record) });
