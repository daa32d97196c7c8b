import { dataPathsOf } from '@atrium/shared/file-refs';
import type { ChatSendResponse, GenerationParams } from '@atrium/shared/contract/chat';
import { holdFiles, type ImageAccess } from '../files/index';
import type { ChatDocsService } from '../chat-docs/index';
import { ApiError, message } from '../../http/envelope';
import type { MemberPrincipal } from '../../http/principal';
import type { ProvidersService } from '../ai/index';
import type { RoomsService } from '../rooms/index';
import { roomBudget } from '../rooms/index';
import { planAnswer, questionHistory, type AnswerPlan } from './answer-plan';
import type { ChatBudgets, Reservation } from './budgets';
import { ChatRepository } from './chat.repository';
import type { ChatDb, ConversationRow } from './chat.tables';
import type { Generations } from './generation';
import type { PromptRow } from './prompt';
import type { ChatQuotas } from './quota';
import type { ShortCache } from './short-cache';
import { UsageRepository } from './usage.repository';

export interface AskingDeps {
  db: ChatDb;
  rooms: RoomsService;
  providers: ProvidersService;
  generations: Generations;
  quotas: ChatQuotas;
  budgets: ChatBudgets;
  images: ImageAccess;
  cache: ShortCache;
  now: () => number;
  /** The conversation's documents (issue 18): the passages answers cite. */
  documents?: Pick<ChatDocsService, 'citationsOf' | 'hasDocuments'>;
}

const Messages = {
  roomClosed: message('chat.roomClosed'),
  noModel: message('chat.noModel'),
  noVision: message('chat.noVision'),
  imageNotOwned: { ...message('chat.imageNotOwned'), field: 'images' },
  busy: message('chat.busy'),
} as const;

export type Prepared = Awaited<ReturnType<Asking['prepare']>>;
export type Plan = AnswerPlan;

/** A budget that limits the answer sends the tokens it reserved as max_tokens. */
const withBudget = (params: GenerationParams, reservation: Reservation): GenerationParams =>
  reservation.limited ? { ...params, max_tokens: reservation.answerTokens } : params;

/**
 * From a member's question to its answer being written: what must hold first, the prompt and
 * what it may cost, the reservation on the budgets, the rows, and the start of the generation.
 * A send, an edit and a regenerated answer (versions.ts) all go this way.
 */
export class Asking {
  private readonly repo: ChatRepository;

  constructor(private readonly deps: AskingDeps) {
    this.repo = new ChatRepository(deps.db);
  }

  /** Everything that must hold before an answer may be written in this conversation. */
  async prepare(member: MemberPrincipal, conversation: ConversationRow, images: string[]) {
    const { cache, rooms, providers } = this.deps;
    const room = await cache.get(`room:${conversation.roomId}`, () =>
      rooms.findEnabled(conversation.roomId),
    );
    if (!room) throw new ApiError(Messages.roomClosed);
    const model = await cache.get(`model:${room.modelId}`, () => providers.resolve(room.modelId));
    if (!model) throw new ApiError(Messages.noModel);
    if (images.length > 0) {
      if (!model.vision) throw new ApiError(Messages.noVision);
      for (const path of images) {
        if (!(await this.deps.images.owns(member.id, path)))
          throw new ApiError(Messages.imageNotOwned);
      }
    }
    for (const streaming of await this.repo.streamingIn(conversation.id)) {
      // An answer whose writer died is ended here rather than at the next sweep: the member is
      // sending now.
      if (await this.deps.generations.isWritten(streaming)) throw new ApiError(Messages.busy);
      await this.deps.generations.endAbandoned(streaming.id, streaming.writerInstance);
    }
    await this.deps.quotas.consumeRate(member.id);
    return { room, model, quota: await this.deps.quotas.cached() };
  }

  /** The answer's prompt and what it may cost at most (`planAnswer`, shared with the footer). */
  plan(
    prepared: Prepared,
    conversationId: number,
    history: Promise<readonly PromptRow[]>,
  ): Promise<AnswerPlan> {
    return planAnswer(this.deps.documents, prepared, conversationId, history);
  }

  /** The plan of an answer to the question `questionId` of the conversation, as stored. */
  planAnswerTo(prepared: Prepared, conversationId: number, questionId: number): Promise<Plan> {
    return this.plan(
      prepared,
      conversationId,
      this.repo.branchTo(conversationId, questionId, this.deps.generations.historyLimit),
    );
  }

  /**
   * Reserves the answer's maximum on the member's and the room's budgets and records it in the
   * usage ledger, inside the transaction that records the answer: refused, nothing is recorded.
   */
  async reserve(
    trx: ChatDb,
    member: MemberPrincipal,
    { room, model, quota }: Prepared,
    messageId: number,
    plan: Plan,
    now: number,
  ): Promise<Reservation> {
    const prices = { promptPrice: model.promptPrice, completionPrice: model.completionPrice };
    const reservation = await this.deps.budgets.reserve(trx, {
      memberId: member.id,
      roomId: room.id,
      memberBudget: quota,
      roomBudget: roomBudget(room),
      ...prices,
      promptTokens: plan.promptBound,
      answerTokens: plan.answer,
      now,
    });
    await new UsageRepository(trx).insert({
      memberId: member.id,
      roomId: room.id,
      modelId: model.modelId,
      messageId,
      day: reservation.day,
      // Estimated now; the real count replaces it when the answer ends.
      promptTokens: plan.promptEstimate,
      reservedTokens: reservation.tokens,
      reservedCost: reservation.cost,
      ...prices,
      settled: 0,
      createdAt: now,
    });
    return reservation;
  }

  /** A streaming answer row written by this instance, to insert in the answer's transaction. */
  answerRow(conversationId: number, questionId: number, { model }: Prepared, now: number) {
    return {
      conversationId,
      parentId: questionId,
      role: 'assistant' as const,
      content: '',
      images: '[]',
      status: 'streaming' as const,
      error: '',
      modelId: model.modelId,
      writerInstance: this.deps.generations.instanceId,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Starts writing the answer recorded (streaming, by this instance) and reserved. */
  start(
    member: MemberPrincipal,
    conversationId: number,
    { room, model }: Prepared,
    plan: Plan,
    reservation: Reservation,
    messageId: number,
  ): void {
    this.deps.generations.start({
      messageId,
      conversationId,
      memberId: member.id,
      model,
      systemPrompt: room.systemPrompt,
      params: withBudget(plan.params, reservation),
      withDocuments: plan.documents,
      history: plan.history,
    });
  }

  /** Records a question and its (streaming) answer after `parentId`, and starts the answer. */
  async ask(
    member: MemberPrincipal,
    conversation: ConversationRow,
    prepared: Prepared,
    question: { content: string; images: string[]; parentId: number | null; title?: string },
  ): Promise<ChatSendResponse> {
    const { content, images } = question;
    const now = this.deps.now();
    // The prompt this answer will be written from: the branch up to the question, then the
    // question itself (the generation plans the same from what is stored).
    const asked = { role: 'user' as const, content, images: JSON.stringify(images) };
    const plan = await this.plan(
      prepared,
      conversation.id,
      questionHistory(
        this.repo,
        conversation.id,
        question.parentId,
        asked,
        this.deps.generations.historyLimit,
      ),
    );
    const { conversationId, userId, assistantId, reservation } = await this.deps.db
      .transaction()
      .execute(async (trx) => {
        const repo = new ChatRepository(trx);
        // A conversation not yet stored (id 0) is created with its first question: refused, it
        // is not there either.
        const conversationId =
          conversation.id > 0
            ? conversation.id
            : await repo.insertConversation({
                roomId: conversation.roomId,
                memberId: member.id,
                title: conversation.title,
                createdAt: now,
                updatedAt: now,
              });
        const userId = await repo.insertMessage({
          conversationId,
          parentId: question.parentId,
          role: 'user',
          content,
          images: JSON.stringify(images),
          status: 'done',
          error: '',
          modelId: null,
          createdAt: now,
          updatedAt: now,
        });
        // The message keeps its own reference to each image (issue 17): it keeps showing them
        // after the member deletes the files from the library.
        await holdFiles(
          trx,
          { kinds: ['chatImage'], holderId: userId, memberId: member.id },
          dataPathsOf(images).map((path) => ({ kind: 'chatImage' as const, path })),
        );
        const assistantId = await repo.insertMessage(
          this.answerRow(conversationId, userId, prepared, now),
        );
        await repo.updateConversation(conversationId, {
          updatedAt: now,
          leafId: assistantId,
          ...(question.title ? { title: question.title } : {}),
        });
        const reservation = await this.reserve(trx, member, prepared, assistantId, plan, now);
        return { conversationId, userId, assistantId, reservation };
      });
    this.start(member, conversationId, prepared, plan, reservation, assistantId);
    // Answered from what was written, without reading it back: this call is on the path to
    // the first token.
    const base = {
      conversationId,
      error: '',
      promptTokens: 0,
      completionTokens: 0,
      tokensEstimated: false,
      createdAt: now,
      updatedAt: now,
    };
    return {
      userMessage: { ...base, id: userId, role: 'user', content, images, status: 'done' },
      assistantMessage: {
        ...base,
        id: assistantId,
        role: 'assistant',
        content: '',
        images: [],
        status: 'streaming',
      },
    };
  }
}
