import { releaseConversationFiles } from '../files/index';
import type {
  chatEditRequest,
  chatSendRequest,
  ChatSendResponse,
  ConversationHit,
  ConversationRecord,
  MessageListResponse,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import type { z } from 'zod';
import { ApiError, message } from '../../http/envelope';
import type { MemberPrincipal } from '../../http/principal';
import { Asking, type AskingDeps } from './asking';
import { branchPath, versionsByMessage } from './branches';
import { ChatRepository } from './chat.repository';
import type { ConversationRow, MessageRow } from './chat.tables';
import { toConversation, toMessage } from './message-records';
import { parseImages } from './prompt';
import { AnswerVersions, withVersions } from './versions';

/** A conversation nobody named: shown as "New chat" in the reader's language (chat-texts.ts). */
const DEFAULT_CONVERSATION_TITLE = '';
const MAX_CONVERSATIONS_LISTED = 200;
const TITLE_LENGTH = 40;

const Messages = {
  conversationNotFound: message('chat.conversationNotFound'),
  messageNotFound: message('chat.messageNotFound'),
  roomClosed: message('chat.roomClosed'),
  notQuestion: message('chat.notQuestion'),
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

/** A conversation not yet stored (id 0): `Asking.ask` creates it with its first question. */
const newConversationIn = (roomId: number, memberId: number, now: number): ConversationRow => ({
  id: 0,
  roomId,
  memberId,
  title: DEFAULT_CONVERSATION_TITLE,
  leafId: null,
  createdAt: now,
  updatedAt: now,
});

function titleFrom(content: string): string {
  const line = content.split('\n').find((l) => l.trim() !== '') ?? content;
  const text = line.trim();
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH)}…` : text;
}

export type ChatServiceDeps = AskingDeps;

/** A member's conversations in a room and the answers written in them (DESIGN 8). */
export class ChatService {
  private readonly repo: ChatRepository;
  private readonly asking: Asking;
  private readonly versions: AnswerVersions;

  constructor(private readonly deps: ChatServiceDeps) {
    this.repo = new ChatRepository(deps.db);
    this.asking = new Asking(deps);
    this.versions = new AnswerVersions(deps, this.asking);
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
    const versions = versionsByMessage(nodes);
    const records = rows.map((row) => {
      const of = versions.get(row.id);
      return of ? { ...toMessage(row), versions: of } : toMessage(row);
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

  async send(
    member: MemberPrincipal,
    request: z.output<typeof chatSendRequest>,
  ): Promise<ChatSendResponse> {
    // 0: a conversation that does not exist yet; it is created with the first question, in the
    // transaction that records it, so a refused question leaves no empty conversation behind.
    if (request.conversationId === 0 && request.roomId === 0)
      throw new ApiError(Messages.conversationNotFound);
    const conversation =
      request.conversationId > 0
        ? await this.conversation(member, request.conversationId)
        : newConversationIn(request.roomId, member.id, this.deps.now());
    const images = [...new Set(request.images)];
    const prepared = await this.asking.prepare(member, conversation, images);
    const parentId = conversation.id > 0 ? ((await this.repo.tipOf(conversation)) ?? null) : null;
    return this.asking.ask(member, conversation, prepared, {
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
    const prepared = await this.asking.prepare(member, conversation, images);
    const sent = await this.asking.ask(member, conversation, prepared, {
      content: request.content,
      images,
      parentId: row.parentId,
      title: undefined,
    });
    const nodes = await this.repo.branchNodes(conversation.id);
    return { ...sent, userMessage: withVersions(nodes, sent.userMessage) };
  }

  /** Shows the branch through `messageId` (one version of a message), at its newest message. */
  async showBranch(member: MemberPrincipal, messageId: number): Promise<void> {
    await this.versions.show(await this.ownedMessage(member, messageId));
  }

  /** Stops an answer being written; answers the message as it ended. */
  async stop(member: MemberPrincipal, messageId: number): Promise<MessageRecord> {
    const row = await this.ownedMessage(member, messageId);
    if (row.status === 'streaming') await this.deps.generations.stop(messageId);
    return toMessage((await this.repo.findMessage(messageId)) ?? row);
  }

  /** Writes the shown branch's latest answer again, as a new version of it (versions.ts). */
  async regenerate(member: MemberPrincipal, messageId: number): Promise<MessageRecord> {
    const row = await this.ownedMessage(member, messageId);
    const conversation = await this.conversation(member, row.conversationId);
    return this.versions.regenerate(member, conversation, row);
  }
}
