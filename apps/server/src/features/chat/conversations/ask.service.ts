import { dataPathsOf } from '@atrium/shared/file-refs';
import type {
  chatEditRequest,
  chatSendRequest,
  ChatSendResponse,
  GenerationParams,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import type { z } from 'zod';
import { holdFiles, type ImageAccess } from '../../library/index';
import type { ChatDocsService } from '../../chat-docs/index';
import { ApiError, message } from '../../../http/envelope';
import type { MemberPrincipal } from '../../../http/principal';
import type { ProvidersService } from '../../ai/index';
import type { RoomsService } from '../../rooms/index';
import { roomBudget } from '../../rooms/index';
import {
  UsageRepository,
  type ChatBudgets,
  type ChatQuotas,
  type Reservation,
  type ShortCache,
} from '../budgets/index';
import { parseImages, type ChatDb, type ConversationRow, type MessageRow } from '../chat.tables';
import { planAnswer, type AnswerPlan, type Generations } from '../generation/index';
import { ChatRepository } from './chat.repository';
import { withVersions } from './versions';

export interface AskDeps {
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
  documents?: Pick<ChatDocsService, 'hasDocuments'>;
}

const Messages = {
  conversationNotFound: message('chat.conversationNotFound'),
  messageNotFound: message('chat.messageNotFound'),
  notQuestion: message('chat.notQuestion'),
  roomClosed: message('chat.roomClosed'),
  noModel: message('chat.noModel'),
  noVision: message('chat.noVision'),
  imageNotOwned: { ...message('chat.imageNotOwned'), field: 'images' },
  busy: message('chat.busy'),
  notLast: message('chat.notLastAnswer'),
  notAnswer: message('chat.notAnswer'),
  stillStreaming: message('chat.stillStreaming'),
} as const;

/** A conversation nobody named: shown as "New chat" in the reader's language (chat-texts.ts). */
export const DEFAULT_CONVERSATION_TITLE = '';
const TITLE_LENGTH = 40;

function titleFrom(content: string): string {
  const line = content.split('\n').find((l) => l.trim() !== '') ?? content;
  const text = line.trim();
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH)}…` : text;
}

/** What must hold before an answer is written: the room, its model, the member's quota. */
type Admitted = Awaited<ReturnType<AskService['admit']>>;

/** A question to record: after `parentId` (null: first), naming the conversation if untitled. */
interface Question {
  content: string;
  images: string[];
  parentId: number | null;
  title?: string | undefined;
}

/** A budget that limits the answer sends the tokens it reserved as max_tokens. */
const withBudget = (params: GenerationParams, reservation: Reservation): GenerationParams =>
  reservation.limited ? { ...params, max_tokens: reservation.answerTokens } : params;

/**
 * Questions and their answers (DESIGN 8): a send, an edit (a question asked again, SPEC 2.6)
 * and a regenerated answer (a new version beside the old, issue 28). Each walks one way: what
 * must hold and the history from the repositories, the one plan of the answer's prompt
 * (generation), one transaction recording the rows and reserving the budgets, then the
 * generation starts from that plan.
 */
export class AskService {
  private readonly repo: ChatRepository;

  constructor(private readonly deps: AskDeps) {
    this.repo = new ChatRepository(deps.db);
  }

  async send(
    member: MemberPrincipal,
    request: z.output<typeof chatSendRequest>,
  ): Promise<ChatSendResponse> {
    // 0: a conversation that does not exist yet; it is created with the first question, in the
    // transaction that records it, so a refused question leaves no empty conversation behind.
    if (request.conversationId === 0 && request.roomId === 0)
      throw new ApiError(Messages.conversationNotFound);
    const now = this.deps.now();
    const conversation =
      request.conversationId > 0
        ? await this.conversation(member, request.conversationId)
        : {
            id: 0,
            roomId: request.roomId,
            memberId: member.id,
            title: DEFAULT_CONVERSATION_TITLE,
            leafId: null,
            createdAt: now,
            updatedAt: now,
          };
    const images = [...new Set(request.images)];
    return this.ask(member, conversation, {
      content: request.content,
      images,
      parentId: undefined,
      title:
        conversation.title === DEFAULT_CONVERSATION_TITLE ? titleFrom(request.content) : undefined,
    });
  }

  /**
   * Edit and branch (SPEC 2.6): the question asked again in other words, beside the old one
   * (which stays, with its answers, one switch away); the new question is answered and shown.
   */
  async edit(
    member: MemberPrincipal,
    request: z.output<typeof chatEditRequest>,
  ): Promise<ChatSendResponse> {
    const row = await this.ownedMessage(member, request.messageId);
    if (row.role !== 'user') throw new ApiError(Messages.notQuestion);
    const conversation = await this.conversation(member, row.conversationId);
    const sent = await this.ask(member, conversation, {
      content: request.content,
      images: parseImages(row.images),
      parentId: row.parentId,
    });
    const nodes = await this.repo.branchNodes(conversation.id);
    return { ...sent, userMessage: withVersions(nodes, sent.userMessage) };
  }

  /**
   * Writes the shown branch's latest answer again, with the room's current model and settings,
   * as a new version of it: the new version is shown and streams; the earlier ones are kept.
   */
  async regenerate(member: MemberPrincipal, messageId: number): Promise<MessageRecord> {
    const row = await this.ownedMessage(member, messageId);
    const conversation = await this.conversation(member, row.conversationId);
    if (row.role !== 'assistant' || row.parentId === null) throw new ApiError(Messages.notAnswer);
    if (row.status === 'streaming') throw new ApiError(Messages.stillStreaming);
    const questionId = row.parentId;
    if ((await this.repo.tipOf(conversation)) !== row.id) throw new ApiError(Messages.notLast);
    const admitted = await this.admit(member, conversation, []);
    const history = this.repo.branchTo(
      conversation.id,
      questionId,
      this.deps.generations.historyLimit,
    );
    const plan = await this.plan(admitted, conversation.id, history);
    const now = this.deps.now();
    const { id, reservation } = await this.deps.db.transaction().execute(async (trx) => {
      const repo = new ChatRepository(trx);
      const id = await repo.insertMessage(
        this.answerRow(conversation.id, questionId, admitted, now),
      );
      // Shown only if the shown branch is still the one read above: of two regenerations (or a
      // regeneration and a send or a switch) at once, the second is refused and leaves nothing.
      if (!(await repo.moveLeaf(conversation.id, conversation.leafId, id, now)))
        throw new ApiError(Messages.busy);
      const reservation = await this.reserve(trx, member, admitted, id, plan, now);
      return { id, reservation };
    });
    this.start(member, conversation.id, admitted, plan, reservation, id);
    const record: MessageRecord = {
      id,
      conversationId: conversation.id,
      role: 'assistant',
      content: '',
      images: [],
      status: 'streaming',
      error: '',
      promptTokens: 0,
      completionTokens: 0,
      tokensEstimated: false,
      createdAt: now,
      updatedAt: now,
    };
    return withVersions(await this.repo.branchNodes(conversation.id), record);
  }

  private async conversation(member: MemberPrincipal, id: number): Promise<ConversationRow> {
    const row = await this.repo.findConversation(id, member.id);
    if (!row) throw new ApiError(Messages.conversationNotFound);
    return row;
  }

  private async ownedMessage(member: MemberPrincipal, id: number) {
    const row = await this.repo.findOwnedMessage(id, member.id);
    if (!row) throw new ApiError(Messages.messageNotFound);
    return row;
  }

  /** Everything that must hold before an answer may be written in this conversation. */
  private async admit(member: MemberPrincipal, conversation: ConversationRow, images: string[]) {
    const { cache, rooms, providers, generations } = this.deps;
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
      if (await generations.isWritten(streaming)) throw new ApiError(Messages.busy);
      await generations.endAbandoned(streaming.id, streaming.writerInstance);
    }
    await this.deps.quotas.consumeRate(member.id);
    return { room, model, quota: await this.deps.quotas.cached() };
  }

  /** The one plan of the answer (generation), from the history read here. */
  private plan(
    { room, model }: Admitted,
    conversationId: number,
    history: Promise<readonly Pick<MessageRow, 'role' | 'content' | 'images'>[]>,
  ): Promise<AnswerPlan> {
    return planAnswer(this.deps.documents, { room, model }, conversationId, history);
  }

  /**
   * Records a question and its (streaming) answer after `parentId` (undefined: the shown tip),
   * and starts the answer.
   */
  private async ask(
    member: MemberPrincipal,
    conversation: ConversationRow,
    question: Omit<Question, 'parentId'> & { parentId: number | null | undefined },
  ): Promise<ChatSendResponse> {
    const { content, images } = question;
    const admitted = await this.admit(member, conversation, images);
    const asked = { role: 'user' as const, content, images: JSON.stringify(images) };
    const context = this.repo.questionHistory(
      conversation,
      question.parentId,
      asked,
      this.deps.generations.historyLimit,
    );
    const plan = await this.plan(
      admitted,
      conversation.id,
      context.then(({ history }) => history),
    );
    const { parentId } = await context;
    const now = this.deps.now();
    const recorded = await this.deps.db.transaction().execute(async (trx) => {
      const ids = await this.record(
        trx,
        member,
        conversation,
        admitted,
        { ...question, parentId },
        now,
      );
      const reservation = await this.reserve(trx, member, admitted, ids.assistantId, plan, now);
      return { ...ids, reservation };
    });
    const { conversationId, userId, assistantId, reservation } = recorded;
    this.start(member, conversationId, admitted, plan, reservation, assistantId);
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

  /** The question's rows and its answer's, in the transaction `trx` that reserves its budget. */
  private async record(
    trx: ChatDb,
    member: MemberPrincipal,
    conversation: ConversationRow,
    admitted: Admitted,
    question: Question,
    now: number,
  ) {
    const { content, images } = question;
    const repo = new ChatRepository(trx);
    // A conversation not yet stored (id 0) is created with its first question: refused, it is
    // not there either.
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
    // The message keeps its own reference to each image (issue 17): it keeps showing them after
    // the member deletes the files from the library.
    await holdFiles(
      trx,
      { kinds: ['chatImage'], holderId: userId, memberId: member.id },
      dataPathsOf(images).map((path) => ({ kind: 'chatImage' as const, path })),
    );
    const assistantId = await repo.insertMessage(
      this.answerRow(conversationId, userId, admitted, now),
    );
    await repo.updateConversation(conversationId, {
      updatedAt: now,
      leafId: assistantId,
      ...(question.title ? { title: question.title } : {}),
    });
    return { conversationId, userId, assistantId };
  }

  /**
   * Reserves the answer's maximum on the member's and the room's budgets and records it in the
   * usage ledger, inside the transaction that records the answer: refused, nothing is recorded.
   */
  private async reserve(
    trx: ChatDb,
    member: MemberPrincipal,
    { room, model, quota }: Admitted,
    messageId: number,
    plan: AnswerPlan,
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
  private answerRow(conversationId: number, questionId: number, { model }: Admitted, now: number) {
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
  private start(
    member: MemberPrincipal,
    conversationId: number,
    { room, model }: Admitted,
    plan: AnswerPlan,
    reservation: Reservation,
    messageId: number,
  ): void {
    this.deps.generations.start(
      {
        messageId,
        conversationId,
        memberId: member.id,
        model,
        systemPrompt: room.systemPrompt,
        params: withBudget(plan.params, reservation),
        withDocuments: plan.documents,
      },
      plan,
    );
  }
}
