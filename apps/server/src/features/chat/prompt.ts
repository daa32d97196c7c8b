import type { GenerationParams } from '@atrium/shared/contract/chat';
import type { ChatCompletionMessageParam, ResolvedModel } from '../ai/index';
import type { ImageAccess } from '../files/index';
import type { MessageRow } from './chat.tables';
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './tokens';

const DEFAULT_CONTEXT_TOKENS = 8192;
const DEFAULT_ANSWER_TOKENS = 1024;
const MAX_IMAGES_IN_PROMPT = 4;

/** The images a user message carries (stored as a JSON array of paths). */
export function parseImages(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export interface PromptRequest {
  model: ResolvedModel;
  systemPrompt: string;
  params: GenerationParams;
}

export interface Prompt {
  messages: ChatCompletionMessageParam[];
  /** Estimated, for the usage record when the provider reports none. */
  promptTokens: number;
}

/**
 * The prompt: the room's system prompt, then as much recent history (`history`, newest first) as
 * fits the model's context (always the newest message), with the newest images for vision models.
 */
export async function buildPrompt(
  { model, systemPrompt, params }: PromptRequest,
  history: readonly MessageRow[],
  images: ImageAccess,
): Promise<Prompt> {
  const context = model.contextLength > 0 ? model.contextLength : DEFAULT_CONTEXT_TOKENS;
  let budget = context - (params.max_tokens ?? Math.min(DEFAULT_ANSWER_TOKENS, context / 4));
  let promptTokens = 0;
  if (systemPrompt) {
    const cost = estimateTokens(systemPrompt) + MESSAGE_OVERHEAD_TOKENS;
    budget -= cost;
    promptTokens += cost;
  }
  const chosen: { row: MessageRow; images: string[] }[] = [];
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

  const messages: ChatCompletionMessageParam[] = [];
  if (systemPrompt) messages.push({ role: 'system', content: systemPrompt });
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
  return { messages, promptTokens };
}
