import type { GenerationParams } from '@atrium/shared/contract/chat';
import { RETRIEVAL_MAX_TOKENS, type ChatDocsService } from '../chat-docs/index';
import type { ResolvedModel } from '../ai/index';
import type { RoomsService } from '../rooms/index';
import { roomParams } from '../rooms/index';
import type { ChatRepository } from './chat.repository';
import { answerTokens, planPrompt, promptTokenBound, type PromptRow } from './prompt';

export type EnabledRoom = NonNullable<Awaited<ReturnType<RoomsService['findEnabled']>>>;

export interface AnswerPlan {
  params: GenerationParams;
  /** An upper bound of the prompt's tokens: what the budgets reserve for it. */
  promptBound: number;
  promptEstimate: number;
  /** The answer's max_tokens before any budget. */
  answer: number;
  documents: boolean;
  history: readonly PromptRow[];
}

/**
 * The prompt an answer will be written from (the generation plans the same from what is
 * stored) and what it may cost at most: `history` newest first, the question included. Used by
 * the send's reservation and by the footer's estimate of the next question alike.
 */
export async function planAnswer(
  documents: Pick<ChatDocsService, 'hasDocuments'> | undefined,
  { room, model }: { room: EnabledRoom; model: ResolvedModel },
  conversationId: number,
  history: Promise<readonly PromptRow[]>,
): Promise<AnswerPlan> {
  const params = roomParams(room);
  const request = { model, systemPrompt: room.systemPrompt, params };
  const [rows, withDocuments = false] = await Promise.all([
    history,
    conversationId > 0 ? documents?.hasDocuments(conversationId) : false,
  ]);
  const plan = planPrompt(request, rows);
  return {
    params,
    // Passages of the conversation's documents are given within RETRIEVAL_MAX_TOKENS.
    promptBound:
      promptTokenBound(room.systemPrompt, plan) + (withDocuments ? RETRIEVAL_MAX_TOKENS : 0),
    promptEstimate: plan.promptTokens,
    answer: answerTokens(request),
    documents: withDocuments,
    history: rows,
  };
}

/**
 * A question's history, newest first: the question, then the branch up to `parentId` (the
 * conversation's shown tip for a new question), within the generation's history limit.
 */
export function questionHistory(
  repo: ChatRepository,
  conversationId: number,
  parentId: number | null,
  asked: PromptRow,
  historyLimit: number,
): Promise<readonly PromptRow[]> {
  return parentId === null
    ? Promise.resolve([asked])
    : repo
        .branchTo(conversationId, parentId, historyLimit - 1)
        .then((earlier) => [asked, ...earlier]);
}
