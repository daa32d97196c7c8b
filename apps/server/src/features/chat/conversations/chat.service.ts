import { releaseConversationFiles } from '../../library/index';
import type {
  ConversationHit,
  ConversationRecord,
  MessageListResponse,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import type { ChatDocsService } from '../../chat-docs/index';
import { ApiError, message } from '../../../http/envelope';
import type { MemberPrincipal } from '../../../http/principal';
import type { RoomsService } from '../../rooms/index';
import type { ChatDb, ConversationRow, MessageRow } from '../chat.tables';
import { excerptWithRanges } from '../excerpt';
import type { Generations } from '../generation/index';
import { AnswerRepository } from '../streaming/index';
import { DEFAULT_CONVERSATION_TITLE } from './ask.service';
import { branchPath, versionsByMessage } from './branches';
import { ChatRepository } from './chat.repository';
import { toConversation, toMessage } from './message-records';
import { showVersion } from './versions';

const MAX_CONVERSATIONS_LISTED = 200;

const Messages = {
  conversationNotFound: message('chat.conversationNotFound'),
  messageNotFound: message('chat.messageNotFound'),
  roomClosed: message('chat.roomClosed'),
} as const;

export interface ChatServiceDeps {
  db: ChatDb;
  rooms: RoomsService;
  generations: Generations;
  now: () => number;
  /** The conversation's documents (issue 18): the passages answers cite. */
  documents?: Pick<ChatDocsService, 'citationsOf'>;
}

/** A member's conversations in a room and the answers written in them (DESIGN 8). */
export class ChatService {
  private readonly repo: ChatRepository;
  private readonly answers: AnswerRepository;

  constructor(private readonly deps: ChatServiceDeps) {
    this.repo = new ChatRepository(deps.db);
    this.answers = new AnswerRepository(deps.db);
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
      excerpt: content === undefined ? '' : excerptWithRanges(content, [keywords]).excerpt,
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

  /** Shows the branch through `messageId` (one version of a message), at its newest message. */
  async showBranch(member: MemberPrincipal, messageId: number): Promise<void> {
    await showVersion(this.repo, await this.ownedMessage(member, messageId));
  }

  /** Stops an answer being written; answers the message as it ended. */
  async stop(member: MemberPrincipal, messageId: number): Promise<MessageRecord> {
    const row = await this.ownedMessage(member, messageId);
    if (row.status === 'streaming') await this.deps.generations.stop(messageId);
    return toMessage((await this.answers.findMessage(messageId)) ?? row);
  }
}
