import type { GenerationParams } from '@atrium/shared/contract/chat';
import { effectiveContextLength } from '@atrium/shared/contract/chat-limits';
import type { ChatCompletionMessageParam, ResolvedModel } from '../../ai/index';
import type { ImageAccess } from '../../library/index';
import { parseImages, type MessageRow } from '../chat.tables';
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from '../streaming/index';

const DEFAULT_ANSWER_TOKENS = 1024;
const MAX_IMAGES_IN_PROMPT = 4;
/** Upper bounds of a chat template's tokens: per message, and once per prompt. */
const MESSAGE_TOKENS_BOUND = 8;
const TEMPLATE_TOKENS_BOUND = 8;
/** A high-detail image of the largest size providers take (2048 px: 16 tiles of 170, plus 85). */
const IMAGE_TOKENS_BOUND = 2_805;

export interface PromptRequest {
  model: ResolvedModel;
  systemPrompt: string;
  params: GenerationParams;
  /**
   * Room kept in the context for passages of the conversation's documents (RETRIEVAL_MAX_TOKENS
   * when it holds documents): they are found only once the answer starts, after the plan.
   */
  documentsRoom?: number;
}

export interface Prompt {
  messages: ChatCompletionMessageParam[];
  /** Estimated, for the usage record when the provider reports none. */
  promptTokens: number;
}

/** What a prompt reads of a message. */
export type PromptRow = Pick<MessageRow, 'role' | 'content' | 'images'>;

/** The history a prompt keeps: rows with the images each carries, oldest first. */
export interface PromptPlan {
  chosen: { row: Pick<MessageRow, 'role' | 'content'>; images: string[] }[];
  /** Estimated, for the usage record when the provider reports none. */
  promptTokens: number;
}

/** The answer's max_tokens: the room's, or a share of the model's context. */
export function answerTokens({ model, params }: PromptRequest): number {
  const context = effectiveContextLength(model.contextLength);
  return params.max_tokens ?? Math.min(DEFAULT_ANSWER_TOKENS, context / 4);
}

/**
 * What the prompt keeps: the room's system prompt, then as much recent history (`history`,
 * newest first) as fits the model's context (always the newest message), with the newest images
 * for vision models.
 */
export function planPrompt(request: PromptRequest, history: readonly PromptRow[]): PromptPlan {
  const { model, systemPrompt } = request;
  const context = effectiveContextLength(model.contextLength);
  let budget = context - answerTokens(request);
  let promptTokens = 0;
  if (systemPrompt) {
    const cost = estimateTokens(systemPrompt) + MESSAGE_OVERHEAD_TOKENS;
    budget -= cost;
    promptTokens += cost;
  }
  budget -= request.documentsRoom ?? 0;
  const chosen: PromptPlan['chosen'] = [];
  let imagesLeft = model.vision ? MAX_IMAGES_IN_PROMPT : 0;
  for (const row of history) {
    if (row.role === 'assistant' && row.content === '') continue;
    const paths = row.role === 'user' ? parseImages(row.images).slice(0, imagesLeft) : [];
    const cost =
      estimateTokens(row.content) + MESSAGE_OVERHEAD_TOKENS + paths.length * IMAGE_TOKENS;
    if (chosen.length > 0 && cost > budget) break;
    budget -= cost;
    promptTokens += cost;
    imagesLeft -= paths.length;
    chosen.push({ row, images: paths });
  }
  chosen.reverse();
  return { chosen, promptTokens };
}

/**
 * An upper bound of the tokens the planned prompt can cost, for budgets (issue 18): a token of
 * a byte-level tokenizer holds at least one byte, so a text costs at most its UTF-8 length;
 * each message adds the chat template's few tokens, each image at most a high-detail image's.
 */
export function promptTokenBound(systemPrompt: string, plan: PromptPlan): number {
  let bound = TEMPLATE_TOKENS_BOUND;
  if (systemPrompt) bound += Buffer.byteLength(systemPrompt) + MESSAGE_TOKENS_BOUND;
  for (const { row, images } of plan.chosen)
    bound +=
      Buffer.byteLength(row.content) + MESSAGE_TOKENS_BOUND + images.length * IMAGE_TOKENS_BOUND;
  return bound;
}

/**
 * The prompt as planned by `planPrompt` (the plan the budgets reserved for), with the images read
 * and the passages of the conversation's documents (chat-docs `Retrieved.text`, within the room
 * the plan kept for them) as a system message after the room's.
 */
export async function buildPrompt(
  systemPrompt: string,
  { chosen, promptTokens }: PromptPlan,
  images: ImageAccess,
  documents?: string,
): Promise<Prompt> {
  const messages: ChatCompletionMessageParam[] = [];
  if (systemPrompt) messages.push({ role: 'system', content: systemPrompt });
  if (documents) messages.push({ role: 'system', content: documents });
  for (const { row, images: paths } of chosen) {
    if (row.role === 'assistant') {
      messages.push({ role: 'assistant', content: row.content });
      continue;
    }
    const urls = (await Promise.all(paths.map((p) => images.dataUrl(p)))).filter(
      (url): url is string => url !== undefined,
    );
    messages.push(
      urls.length === 0
        ? { role: 'user', content: row.content }
        : {
            role: 'user',
            content: [
              { type: 'text', text: row.content },
              ...urls.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
            ],
          },
    );
  }
  const documentTokens = documents ? estimateTokens(documents) + MESSAGE_OVERHEAD_TOKENS : 0;
  return { messages, promptTokens: promptTokens + documentTokens };
}
