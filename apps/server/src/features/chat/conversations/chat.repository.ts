import { sql, type Insertable } from 'kysely';
import { containsText } from '../../../db/search';
import { branchPath, type BranchNode } from './branches';
import {
  messageColumns,
  type ChatConversationsTable,
  type ChatDb,
  type ChatMessagesTable,
  type ConversationRow,
  type MessageRow,
} from '../chat.tables';

const conversationColumns = [
  'id',
  'roomId',
  'memberId',
  'title',
  'leafId',
  'createdAt',
  'updatedAt',
] as const;

/** Conversations and messages (Kysely only, dialect-neutral). */
export class ChatRepository {
  constructor(readonly db: ChatDb) {}

  listConversations(memberId: number, roomId: number, limit: number): Promise<ConversationRow[]> {
    return this.db
      .selectFrom('chatConversations')
      .select(conversationColumns)
      .where('memberId', '=', memberId)
      .where('roomId', '=', roomId)
      .orderBy('updatedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * The member's conversations in a room whose title or any message holds `keywords` (any case),
   * most recent first, each with the first message that holds them.
   */
  async searchConversations(
    memberId: number,
    roomId: number,
    keywords: string,
    limit: number,
  ): Promise<{ conversation: ConversationRow; content: string | undefined }[]> {
    const rows = await this.db
      .selectFrom('chatConversations')
      .select(conversationColumns)
      .where('memberId', '=', memberId)
      .where('roomId', '=', roomId)
      .where((eb) =>
        eb.or([
          containsText('chatConversations.title', keywords),
          eb.exists(
            eb
              .selectFrom('chatMessages')
              .select('chatMessages.id')
              .whereRef('chatMessages.conversationId', '=', 'chatConversations.id')
              .where(containsText('chatMessages.content', keywords)),
          ),
        ]),
      )
      .orderBy('updatedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    if (rows.length === 0) return [];
    const matches = await this.db
      .selectFrom('chatMessages')
      .select(['conversationId', 'content'])
      .where(
        'conversationId',
        'in',
        rows.map((r) => r.id),
      )
      .where(containsText('content', keywords))
      .orderBy('id')
      .execute();
    const first = new Map<number, string>();
    for (const m of matches)
      if (!first.has(m.conversationId)) first.set(m.conversationId, m.content);
    return rows.map((conversation) => ({ conversation, content: first.get(conversation.id) }));
  }

  findConversation(id: number, memberId: number): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom('chatConversations')
      .select(conversationColumns)
      .where('id', '=', id)
      .where('memberId', '=', memberId)
      .executeTakeFirst();
  }

  async insertConversation(row: Insertable<ChatConversationsTable>): Promise<number> {
    const { id } = await this.db
      .insertInto('chatConversations')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async updateConversation(
    id: number,
    changes: { title?: string; updatedAt?: number; leafId?: number | null },
  ): Promise<void> {
    await this.db.updateTable('chatConversations').set(changes).where('id', '=', id).execute();
  }

  async deleteConversation(id: number): Promise<void> {
    await this.db.deleteFrom('chatConversations').where('id', '=', id).execute();
  }

  /** Every message of a conversation as the branch walk needs it, oldest first. */
  branchNodes(conversationId: number): Promise<BranchNode[]> {
    return this.db
      .selectFrom('chatMessages')
      .select(['id', 'parentId', 'role'])
      .where('conversationId', '=', conversationId)
      .orderBy('id')
      .execute();
  }

  /** These messages, oldest first. */
  async messagesByIds(ids: readonly number[]): Promise<MessageRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('chatMessages')
      .select(messageColumns)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
  }

  /** The message when it belongs to one of the member's conversations, with its room. */
  findOwnedMessage(
    id: number,
    memberId: number,
  ): Promise<(MessageRow & { roomId: number }) | undefined> {
    return this.db
      .selectFrom('chatMessages')
      .innerJoin('chatConversations', 'chatConversations.id', 'chatMessages.conversationId')
      .select([...messageColumns, 'chatConversations.roomId'])
      .where('chatMessages.id', '=', id)
      .where('chatConversations.memberId', '=', memberId)
      .executeTakeFirst();
  }

  /**
   * The conversation's answers still streaming, read through the conversation's index: `|| ''`
   * keeps SQLite's planner off the status index, through which it read every streaming answer of
   * every member (1,000 rows for each send at 1,000 live answers).
   */
  streamingIn(conversationId: number): Promise<{ id: number; writerInstance: string | null }[]> {
    return this.db
      .selectFrom('chatMessages')
      .select(['id', 'writerInstance'])
      .where('conversationId', '=', conversationId)
      .where(sql<string>`${sql.ref('status')} || ''`, '=', 'streaming')
      .execute();
  }

  async insertMessage(row: Insertable<ChatMessagesTable>): Promise<number> {
    const { id } = await this.db
      .insertInto('chatMessages')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** The branch's messages up to and including `messageId`, newest first, at most `limit`. */
  async branchTo(conversationId: number, messageId: number, limit: number): Promise<MessageRow[]> {
    const path = branchPath(await this.branchNodes(conversationId), messageId);
    return (await this.messagesByIds(path.slice(-limit))).reverse();
  }

  /** The last message of the conversation's shown branch. */
  async tipOf(conversation: Pick<ConversationRow, 'id' | 'leafId'>): Promise<number | undefined> {
    return branchPath(await this.branchNodes(conversation.id), conversation.leafId).at(-1);
  }

  /**
   * Shows the branch ending at `leafId` while the shown branch is still the one ending at `from`
   * (null: the newest message): false, and nothing changed, when someone moved it meanwhile.
   */
  async moveLeaf(
    conversationId: number,
    from: number | null,
    leafId: number,
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('chatConversations')
      .set({ leafId, updatedAt: now })
      .where('id', '=', conversationId)
      .where((eb) => (from === null ? eb('leafId', 'is', null) : eb('leafId', '=', from)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The history a question is answered from, newest first: `asked`, then the branch up to its
   * parent (undefined: the conversation's shown tip) within `limit` messages in all; with the
   * parent it follows. The conversation's messages are read once.
   */
  async questionHistory<Row extends Pick<MessageRow, 'role' | 'content' | 'images'>>(
    conversation: Pick<ConversationRow, 'id' | 'leafId'>,
    parentId: number | null | undefined,
    asked: Row,
    limit: number,
  ): Promise<{ parentId: number | null; history: (Row | MessageRow)[] }> {
    if (conversation.id === 0 || parentId === null) return { parentId: null, history: [asked] };
    const nodes = await this.branchNodes(conversation.id);
    const parent = parentId ?? branchPath(nodes, conversation.leafId).at(-1);
    if (parent === undefined) return { parentId: null, history: [asked] };
    const path = branchPath(nodes, parent);
    const earlier = await this.messagesByIds(path.slice(Math.max(0, path.length - limit + 1)));
    return { parentId: parent, history: [asked, ...earlier.reverse()] };
  }
}
