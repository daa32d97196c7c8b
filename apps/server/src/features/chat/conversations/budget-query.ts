import type { budgetCalls, MemberBudget } from '@atrium/shared/contract/chat-budget';
import type { z } from 'zod';
import { ApiError, message } from '../../../http/envelope';
import type { MemberPrincipal } from '../../../http/principal';
import type { ChatDocsService } from '../../chat-docs/index';
import type { ProvidersService } from '../../ai/index';
import type { RoomsService } from '../../rooms/index';
import { roomBudget } from '../../rooms/index';
import type { ChatBudgets, ChatQuotas, ShortCache } from '../budgets/index';
import type { ChatDb } from '../chat.tables';
import { planAnswer } from '../generation/index';
import { ChatRepository } from './chat.repository';

type BudgetRequest = z.output<(typeof budgetCalls)['aigc/chat/budget']['request']>;

export interface ChatBudgetQueryDeps {
  db: ChatDb;
  rooms: RoomsService;
  providers: ProvidersService;
  quotas: ChatQuotas;
  budgets: ChatBudgets;
  cache: ShortCache;
  documents?: Pick<ChatDocsService, 'hasDocuments'>;
  /** The generation's history limit (`Generations.historyLimit`). */
  historyLimit: () => number;
}

/**
 * What the budgets leave a member in a room (issue 18), and whether the next question fits
 * (issue 28, point 5): planned as the send plans it (`planAnswer`, `questionHistory`) and
 * judged by the reservation's own computation (`fitNext`), so the footer says what the send does.
 */
export class ChatBudgetQuery {
  private readonly repo: ChatRepository;

  constructor(private readonly deps: ChatBudgetQueryDeps) {
    this.repo = new ChatRepository(deps.db);
  }

  async budget(member: MemberPrincipal, request: BudgetRequest): Promise<MemberBudget> {
    const { cache, rooms, providers } = this.deps;
    const room = await cache.get(`room:${request.roomId}`, () => rooms.findEnabled(request.roomId));
    if (!room) throw new ApiError(message('chat.roomClosed'));
    const quota = await this.deps.quotas.cached();
    const model = await cache.get(`model:${room.modelId}`, () => providers.resolve(room.modelId));
    const view = (need?: Parameters<ChatBudgets['view']>[5]) =>
      this.deps.budgets.view(this.deps.db, member.id, room.id, quota, roomBudget(room), need);
    if (!model) return { lines: (await view()).lines };

    const conversation =
      request.conversationId > 0
        ? await this.repo.findConversation(request.conversationId, member.id)
        : undefined;
    if (request.conversationId > 0 && conversation?.roomId !== room.id)
      throw new ApiError(message('chat.conversationNotFound'));
    // The draft as the send would take it: trimmed, with as many images as are attached.
    const asked = {
      role: 'user' as const,
      content: request.question.trim(),
      images: JSON.stringify(Array.from({ length: request.images }, (_, i) => `draft-${i}`)),
    };
    const plan = await planAnswer(
      this.deps.documents,
      { room, model },
      conversation?.id ?? 0,
      conversation
        ? this.repo
            .questionHistory(conversation, undefined, asked, this.deps.historyLimit())
            .then(({ history }) => history)
        : Promise.resolve([asked]),
    );
    const { lines, next } = await view({
      promptTokens: plan.promptBound,
      answerTokens: plan.answer,
      promptPrice: model.promptPrice,
      completionPrice: model.completionPrice,
    });
    if (!next) return { lines };
    return {
      lines,
      next: {
        questions: next.questions,
        ...(next.tightest ? next.tightest : {}),
        ...(next.resetsAt !== undefined ? { resetsAt: next.resetsAt } : {}),
      },
    };
  }
}
