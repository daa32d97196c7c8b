import { dataPathsOf } from '@atrium/shared/file-refs';
import { holdFiles, releaseConversationFiles } from '../files/index';
import { RETRIEVAL_MAX_TOKENS, type ChatDocsService } from '../chat-docs/index';
import type {
  chatEditRequest,
  chatSendRequest,
  ChatSendResponse,
  ConversationHit,
  ConversationRecord,
  GenerationParams,
  MessageListResponse,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import type { MemberBudget } from '@atrium/shared/contract/chat-budget';
import type { z } from 'zod';
import { ApiError, message } from '../../http/envelope';
import type { MemberPrincipal } from '../../http/principal';
import type { ProvidersService } from '../ai/index';
import type { RoomsService } from '../rooms/index';
import { roomBudget, roomParams } from '../rooms/index';
import type { ChatBudgets, Reservation } from './budgets';
import { branchPath, newestLeafUnder, versionsOf } from './branches';
import { ChatRepository } from './chat.repository';
import type { ChatDb, ConversationRow, MessageRow } from './chat.tables';
import type { Generations } from './generation';
import { answerTokens, parseImages, planPrompt, promptTokenBound, type PromptRow } from './prompt';
import type { ImageAccess } from '../files/index';
import type { ChatQuotas } from './quota';
import type { ShortCache } from './short-cache';
import { UsageRepository } from './usage.repository';

/** A conversation nobody named: shown as "New chat" in the reader's language (chat-texts.ts). */
const DEFAULT_CONVERSATION_TITLE = '';
const MAX_CONVERSATIONS_LISTED = 200;
const TITLE_LENGTH = 40;

const Messages = {
  conversationNotFound: message('chat.conversationNotFound'),
  messageNotFound: message('chat.messageNotFound'),
  roomClosed: message('chat.roomClosed'),
  noModel: message('chat.noModel'),
  noVision: message('chat.noVision'),
  imageNotOwned: { ...message('chat.imageNotOwned'), field: 'images' },
  busy: message('chat.busy'),
  notLast: message('chat.notLastAnswer'),
  notAnswer: message('chat.notAnswer'),
  notQuestion: message('chat.notQuestion'),
  stillStreaming: message('chat.stillStreaming'),
} as const;

/** Characters of context shown on each side of the words a search found. */
const EXCERPT_CONTEXT = 40;

/** The words found in `text` with a little context, on one line, "…" where it was cut. */
export function excerptAround(text: string, keywords: string): string {
  // Read as prose: markdown's marks (fences, `code`, **bold**, # headings) are left out.
  const flat = text
    .replace(/^\s{0,3}(?:#{1,6}\s+|```\S*)/gm, '')
    .replace(/`+|\*+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const at = flat.toLowerCase().indexOf(keywords.toLowerCase());
  if (at < 0) return flat.slice(0, EXCERPT_CONTEXT * 2);
  const start = Math.max(0, at - EXCERPT_CONTEXT);
  const end = Math.min(flat.length, at + keywords.length + EXCERPT_CONTEXT);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

const toConversation = (row: ConversationRow): ConversationRecord => ({
  id: row.id,
  roomId: row.roomId,
  title: row.title,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const toMessage = (row: MessageRow): MessageRecord => ({
  id: row.id,
  conversationId: row.conversationId,
  role: row.role,
  content: row.content,
  images: parseImages(row.images),
  status: row.status,
  error: row.error,
  promptTokens: row.promptTokens,
  completionTokens: row.completionTokens,
  tokensEstimated: row.tokensEstimated === 1,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

type Prepared = Awaited<ReturnType<ChatService['prepare']>>;

/** A budget that limits the answer sends the tokens it reserved as max_tokens. */
const withBudget = (params: GenerationParams, reservation: Reservation): GenerationParams =>
  reservation.limited ? { ...params, max_tokens: reservation.answerTokens } : params;

function titleFrom(content: string): string {
  const line = content.split('\n').find((l) => l.trim() !== '') ?? content;
  const text = line.trim();
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH)}…` : text;
}

export interface ChatServiceDeps {
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

/** A member's conversations in a room and the answers written in them (DESIGN 8). */
export class ChatService {
  private readonly repo: ChatRepository;

  constructor(private readonly deps: ChatServiceDeps) {
    this.repo = new ChatRepository(deps.db);
  }

  private async conversation(member: MemberPrincipal, id: number): Promise<ConversationRow> {
    const row = await this.repo.findConversation(id, member.id);
    if (!row) throw new ApiError(Messages.conversationNotFound);
    return row;
  }

  /** The member's message, or "not found" for anyone else's. */
  async ownedMessage(
    member: MemberPrincipal,
    id: number,
  ): Promise<MessageRow & { roomId: number }> {
    const row = await this.repo.findOwnedMessage(id, member.id);
    if (!row) throw new ApiError(Messages.messageNotFound);
    return row;
  }

  /** What is left of every limit that applies to the member in the room. */
  async budget(member: MemberPrincipal, roomId: number): Promise<MemberBudget> {
    const room = await this.deps.cache.get(`room:${roomId}`, () =>
      this.deps.rooms.findEnabled(roomId),
    );
    if (!room) throw new ApiError(Messages.roomClosed);
    const quota = await this.deps.quotas.cached();
    return {
      lines: await this.deps.budgets.lines(
        this.deps.db,
        member.id,
        room.id,
        quota,
        roomBudget(room),
      ),
    };
  }

  async listConversations(member: MemberPrincipal, roomId: number): Promise<ConversationRecord[]> {
    const rows = await this.repo.listConversations(member.id, roomId, MAX_CONVERSATIONS_LISTED);
    return rows.map(toConversation);
  }

  async searchConversations(
    member: MemberPrincipal,
    roomId: number,
    keywords: string,
  ): Promise<ConversationHit[]> {
    const hits = await this.repo.searchConversations(
      member.id,
      roomId,
      keywords,
      MAX_CONVERSATIONS_LISTED,
    );
    return hits.map(({ conversation, content }) => ({
      conversation: toConversation(conversation),
      excerpt: content === undefined ? '' : excerptAround(content, keywords),
    }));
  }

  async createConversation(
    member: MemberPrincipal,
    roomId: number,
    title: string | undefined,
  ): Promise<ConversationRecord> {
    if (!(await this.deps.rooms.findEnabled(roomId))) throw new ApiError(Messages.roomClosed);
    const now = this.deps.now();
    const id = await this.repo.insertConversation({
      roomId,
      memberId: member.id,
      title: title || DEFAULT_CONVERSATION_TITLE,
      createdAt: now,
      updatedAt: now,
    });
    return toConversation(await this.conversation(member, id));
  }

  async renameConversation(
    member: MemberPrincipal,
    id: number,
    title: string,
  ): Promise<ConversationRecord> {
    await this.conversation(member, id);
    await this.repo.updateConversation(id, { title, updatedAt: this.deps.now() });
    return toConversation(await this.conversation(member, id));
  }

  /** Stops any answer still being written in it, then deletes it with its messages. */
  async deleteConversation(member: MemberPrincipal, id: number): Promise<void> {
    await this.conversation(member, id);
    for (const { id: messageId } of await this.repo.streamingIn(id)) {
      await this.deps.generations.stop(messageId);
    }
    await this.deps.db.transaction().execute(async (trx) => {
      await releaseConversationFiles(trx, [id]);
      await new ChatRepository(trx).deleteConversation(id);
    });
  }

  async listMessages(
    member: MemberPrincipal,
    conversationId: number,
    before: number | undefined,
    limit: number,
  ): Promise<MessageListResponse> {
    const conversation = await this.conversation(member, conversationId);
    // The shown branch only; paged from its end backwards.
    const nodes = await this.repo.branchNodes(conversationId);
    const path = branchPath(nodes, conversation.leafId).filter(
      (id) => before === undefined || id < before,
    );
    const rows = await this.repo.messagesByIds(path.slice(-limit));
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const records = rows.map((row) => {
      const node = byId.get(row.id);
      const versions = node && versionsOf(nodes, node);
      return versions ? { ...toMessage(row), versions } : toMessage(row);
    });
    const cited = await this.deps.documents?.citationsOf(
      records.filter((record) => record.role === 'assistant').map((record) => record.id),
    );
    for (const record of records) {
      const citations = cited?.get(record.id);
      if (citations) record.citations = citations;
    }
    return { records, hasMore: path.length > limit };
  }

  /** The last message of the conversation's shown branch. */
  private async tipOf(conversation: ConversationRow): Promise<number | undefined> {
    return branchPath(await this.repo.branchNodes(conversation.id), conversation.leafId).at(-1);
  }

  /** Everything that must hold before an answer may be written in this conversation. */
  private async prepare(member: MemberPrincipal, conversation: ConversationRow, images: string[]) {
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

  /**
   * The prompt an answer will be written from (the generation plans the same from what is
   * stored) and what it may cost at most: `history` newest first, the question included.
   */
  private async plan(
    { room, model }: Prepared,
    conversationId: number,
    history: Promise<readonly PromptRow[]>,
  ): Promise<{
    params: GenerationParams;
    promptBound: number;
    promptEstimate: number;
    answer: number;
    documents: boolean;
    history: readonly PromptRow[];
  }> {
    const params = roomParams(room);
    const request = { model, systemPrompt: room.systemPrompt, params };
    const [rows, documents = false] = await Promise.all([
      history,
      this.deps.documents?.hasDocuments(conversationId),
    ]);
    const plan = planPrompt(request, rows);
    return {
      params,
      // Passages of the conversation's documents are given within RETRIEVAL_MAX_TOKENS.
      promptBound:
        promptTokenBound(room.systemPrompt, plan) + (documents ? RETRIEVAL_MAX_TOKENS : 0),
      promptEstimate: plan.promptTokens,
      answer: answerTokens(request),
      documents,
      history: rows,
    };
  }

  /**
   * Reserves the answer's maximum on the member's and the room's budgets and records it in the
   * usage ledger, inside the transaction that records the answer: refused, nothing is recorded.
   */
  private async reserve(
    trx: ChatDb,
    member: MemberPrincipal,
    { room, model, quota }: Prepared,
    messageId: number,
    plan: Awaited<ReturnType<ChatService['plan']>>,
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

  async send(
    member: MemberPrincipal,
    request: z.output<typeof chatSendRequest>,
  ): Promise<ChatSendResponse> {
    const conversation = await this.conversation(member, request.conversationId);
    const images = [...new Set(request.images)];
    const prepared = await this.prepare(member, conversation, images);
    const parentId = (await this.tipOf(conversation)) ?? null;
    return this.ask(member, conversation, prepared, {
      content: request.content,
      images,
      parentId,
      title:
        conversation.title === DEFAULT_CONVERSATION_TITLE ? titleFrom(request.content) : undefined,
    });
  }

  /**
   * Edit and branch (SPEC 2.6): the question asked again in other words, beside the old one (which
   * stays, with its answers, one switch away); the new question is answered and shown.
   */
  async edit(
    member: MemberPrincipal,
    request: z.output<typeof chatEditRequest>,
  ): Promise<ChatSendResponse> {
    const row = await this.ownedMessage(member, request.messageId);
    if (row.role !== 'user') throw new ApiError(Messages.notQuestion);
    const conversation = await this.conversation(member, row.conversationId);
    const images = parseImages(row.images);
    const prepared = await this.prepare(member, conversation, images);
    const sent = await this.ask(member, conversation, prepared, {
      content: request.content,
      images,
      parentId: row.parentId,
      title: undefined,
    });
    const nodes = await this.repo.branchNodes(conversation.id);
    const node = nodes.find((n) => n.id === sent.userMessage.id);
    const versions = node && versionsOf(nodes, node);
    return versions ? { ...sent, userMessage: { ...sent.userMessage, versions } } : sent;
  }

  /** Shows the branch through `messageId` (one version of a question), at its newest message. */
  async showBranch(member: MemberPrincipal, messageId: number): Promise<void> {
    const row = await this.ownedMessage(member, messageId);
    if ((await this.repo.streamingIn(row.conversationId)).length > 0)
      throw new ApiError(Messages.busy);
    const nodes = await this.repo.branchNodes(row.conversationId);
    await this.repo.updateConversation(row.conversationId, {
      leafId: newestLeafUnder(nodes, row.id),
    });
  }

  /** Records a question and its (streaming) answer after `parentId`, and starts the answer. */
  private async ask(
    member: MemberPrincipal,
    conversation: ConversationRow,
    prepared: Prepared,
    question: { content: string; images: string[]; parentId: number | null; title?: string },
  ): Promise<ChatSendResponse> {
    const { room, model } = prepared;
    const { content, images } = question;
    const now = this.deps.now();
    // The prompt this answer will be written from: the branch up to the question, then the
    // question itself (the generation plans the same from what is stored).
    const asked = { role: 'user' as const, content, images: JSON.stringify(images) };
    const plan = await this.plan(
      prepared,
      conversation.id,
      question.parentId === null
        ? Promise.resolve([asked])
        : this.repo
            .branchTo(conversation.id, question.parentId, this.deps.generations.historyLimit - 1)
            .then((earlier) => [asked, ...earlier]),
    );
    const { userId, assistantId, reservation } = await this.deps.db
      .transaction()
      .execute(async (trx) => {
        const repo = new ChatRepository(trx);
        const userId = await repo.insertMessage({
          conversationId: conversation.id,
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
        const assistantId = await repo.insertMessage({
          conversationId: conversation.id,
          parentId: userId,
          role: 'assistant',
          content: '',
          images: '[]',
          status: 'streaming',
          error: '',
          modelId: model.modelId,
          writerInstance: this.deps.generations.instanceId,
          createdAt: now,
          updatedAt: now,
        });
        await repo.updateConversation(conversation.id, {
          updatedAt: now,
          leafId: assistantId,
          ...(question.title ? { title: question.title } : {}),
        });
        const reservation = await this.reserve(trx, member, prepared, assistantId, plan, now);
        return { userId, assistantId, reservation };
      });
    this.deps.generations.start({
      messageId: assistantId,
      conversationId: conversation.id,
      memberId: member.id,
      model,
      systemPrompt: room.systemPrompt,
      params: withBudget(plan.params, reservation),
      withDocuments: plan.documents,
      history: plan.history,
    });
    // Answered from what was written, without reading it back: this call is on the path to
    // the first token.
    const base = {
      conversationId: conversation.id,
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

  /** Stops an answer being written; answers the message as it ended. */
  async stop(member: MemberPrincipal, messageId: number): Promise<MessageRecord> {
    const row = await this.ownedMessage(member, messageId);
    if (row.status === 'streaming') await this.deps.generations.stop(messageId);
    return toMessage((await this.repo.findMessage(messageId)) ?? row);
  }

  /** Writes the latest answer again, in place, with the room's current model and settings. */
  async regenerate(member: MemberPrincipal, messageId: number): Promise<MessageRecord> {
    const row = await this.ownedMessage(member, messageId);
    if (row.role !== 'assistant') throw new ApiError(Messages.notAnswer);
    if (row.status === 'streaming') throw new ApiError(Messages.stillStreaming);
    const conversation = await this.conversation(member, row.conversationId);
    if ((await this.tipOf(conversation)) !== row.id) throw new ApiError(Messages.notLast);
    const prepared = await this.prepare(member, conversation, []);
    const { room, model } = prepared;
    const now = this.deps.now();
    const plan = await this.plan(
      prepared,
      conversation.id,
      this.repo.history(conversation.id, row.id, this.deps.generations.historyLimit),
    );
    const reservation = await this.deps.db.transaction().execute(async (trx) => {
      const restarted = await new ChatRepository(trx).restartMessage(row.id, {
        content: '',
        error: '',
        modelId: model.modelId,
        promptTokens: 0,
        completionTokens: 0,
        tokensEstimated: 0,
        seq: 0,
        writerInstance: this.deps.generations.instanceId,
        updatedAt: now,
      });
      if (!restarted) throw new ApiError(Messages.stillStreaming);
      await new ChatRepository(trx).updateConversation(conversation.id, { updatedAt: now });
      return this.reserve(trx, member, prepared, row.id, plan, now);
    });
    this.deps.generations.start({
      messageId: row.id,
      conversationId: conversation.id,
      memberId: member.id,
      model,
      systemPrompt: room.systemPrompt,
      params: withBudget(plan.params, reservation),
      withDocuments: plan.documents,
      history: plan.history,
    });
    return toMessage((await this.repo.findMessage(row.id)) ?? row);
  }
}
