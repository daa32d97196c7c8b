import type { ChatSearchResponse, chatSearchRequest } from '@atrium/shared/contract/chat-search';
import type { z } from 'zod';
import type { MemberPrincipal } from '../../../http/principal';
import { branchPath } from '../conversations/index';
import {
  ChatSearchRepository,
  searchTerms,
  type MessageHitRow,
  type TitleHitRow,
} from './chat-search.repository';
import { ChatRepository } from '../conversations/index';
import type { ChatService } from '../conversations/index';
import type { ChatDb } from '../chat.tables';
import { excerptWithRanges, matchRanges } from '../excerpt';

/** Conversations whose title holds the words, shown above the messages on the first page. */
const TITLE_HITS = 10;
const conversationOf = (row: MessageHitRow | TitleHitRow) => ({
  id: row.conversationId,
  roomId: row.roomId,
  title: row.title,
  createdAt: row.conversationCreatedAt,
  updatedAt: row.conversationUpdatedAt,
});

/** Search over all of a member's conversations (issue 18), and opening what it found. */
export class ChatSearchService {
  private readonly repo: ChatSearchRepository;
  private readonly chatRepo: ChatRepository;

  constructor(
    db: ChatDb,
    private readonly chat: ChatService,
  ) {
    this.repo = new ChatSearchRepository(db);
    this.chatRepo = new ChatRepository(db);
  }

  indexed(): Promise<boolean> {
    return this.repo.indexed();
  }

  async search(
    member: MemberPrincipal,
    request: z.output<typeof chatSearchRequest>,
  ): Promise<ChatSearchResponse> {
    await this.repo.catchUp();
    const terms = searchTerms(request.keywords);
    const words = [...terms.long, ...terms.short];
    const scope = { memberId: member.id, terms, roomId: request.roomId };
    const [{ rows, stoppedAt }, titles] = await Promise.all([
      this.repo.messageHits({ ...scope, before: request.before, limit: request.limit }),
      request.before === undefined
        ? this.repo.titleHits({ ...scope, limit: TITLE_HITS })
        : Promise.resolve([]),
    ]);
    return {
      titles: titles.map((row) => ({
        conversation: conversationOf(row),
        roomTitle: row.roomTitle,
        ranges: matchRanges(row.title, words),
      })),
      records: rows.map((row) => ({
        conversation: conversationOf(row),
        roomTitle: row.roomTitle,
        messageId: row.id,
        role: row.role,
        createdAt: row.createdAt,
        ...excerptWithRanges(row.content, words),
      })),
      next: rows.length === request.limit ? (rows.at(-1)?.id ?? null) : (stoppedAt ?? null),
    };
  }

  /**
   * Where a found message is; when the conversation shows another branch, it is switched to the
   * branch holding the message (at that branch's newest message), as choosing that version would.
   */
  async reveal(member: MemberPrincipal, messageId: number) {
    const message = await this.chat.ownedMessage(member, messageId);
    const conversation = await this.chatRepo.findConversation(message.conversationId, member.id);
    const nodes = await this.chatRepo.branchNodes(message.conversationId);
    const shown = branchPath(nodes, conversation?.leafId ?? null).includes(messageId);
    if (!shown) await this.chat.showBranch(member, messageId);
    return {
      conversationId: message.conversationId,
      roomId: message.roomId,
      switchedBranch: !shown,
    };
  }
}
