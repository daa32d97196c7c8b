import type { GenerationParams } from '@atrium/shared/contract/chat';
import { RETRIEVAL_MAX_TOKENS, type ChatDocsService } from '../../chat-docs/index';
import type { ResolvedModel } from '../../ai/index';
import type { RoomsService } from '../../rooms/index';
import { roomParams } from '../../rooms/index';
import {
  answerTokens,
  planPrompt,
  promptTokenBound,
  type PromptPlan,
  type PromptRow,
} from './prompt';

export type EnabledRoom = NonNullable<Awaited<ReturnType<RoomsService['findEnabled']>>>;

/**
 * The one plan of an answer's prompt (issue 30): made once, before the answer is recorded, from
 * the history as read then. The budgets reserve what it may cost; the generation sends exactly
 * it to the provider (with the passages of the conversation's documents in the room it keeps).
 */
export interface AnswerPlan {
  params: GenerationParams;
  /** An upper bound of the prompt's tokens: what the budgets reserve for it. */
  promptBound: number;
  promptEstimate: number;
  /** The answer's max_tokens before any budget. */
  answer: number;
  /** Passages of the conversation's documents may be given (room was kept and reserved). */
  documents: boolean;
  /** The history the prompt keeps, with the images each message carries, oldest first. */
  prompt: PromptPlan;
  /** The question answered: what the documents' passages are found for. */
  question: string;
}

/**
 * Plans an answer in a room from `history` (newest first, the question included) and says what
 * it may cost at most. Used by the send's reservation and by the footer's estimate of the next
 * question alike.
 */
export async function planAnswer(
  documents: Pick<ChatDocsService, 'hasDocuments'> | undefined,
  { room, model }: { room: EnabledRoom; model: ResolvedModel },
  conversationId: number,
  history: Promise<readonly PromptRow[]>,
): Promise<AnswerPlan> {
  const params = roomParams(room);
  // Read together: this is on the path to the first token.
  const [rows, withDocuments = false] = await Promise.all([
    history,
    conversationId > 0 ? documents?.hasDocuments(conversationId) : false,
  ]);
  const request = {
    model,
    systemPrompt: room.systemPrompt,
    params,
    documentsRoom: withDocuments ? RETRIEVAL_MAX_TOKENS : 0,
  };
  const prompt = planPrompt(request, rows);
  return {
    params,
    // Passages of the conversation's documents are given within RETRIEVAL_MAX_TOKENS.
    promptBound:
      promptTokenBound(room.systemPrompt, prompt) + (withDocuments ? RETRIEVAL_MAX_TOKENS : 0),
    promptEstimate: prompt.promptTokens,
    answer: answerTokens(request),
    documents: withDocuments,
    prompt,
    question: rows.find((row) => row.role === 'user')?.content ?? '',
  };
}
