import type { Generated, Insertable, Kysely, Selectable } from 'kysely';
import type { Database, Db } from '../../../db/index';
import { storedContent, type ChatConversationsTable, type ChatMessagesTable } from '../chat.tables';

/** Table shape of share links (migration 2026_11_30_3000_chat_shares). */
export interface ChatSharesTable {
  id: Generated<number>;
  tokenHash: string;
  token: string;
  conversationId: number;
  memberId: number;
  public: number;
  title: string;
  roomId: number;
  roomTitle: string;
  messageCount: number;
  /** JSON list of `SharedMessage`. */
  snapshot: string;
  createdAt: number;
}

type ArchiveTables = {
  chatConversations: ChatConversationsTable;
  chatMessages: ChatMessagesTable;
  chatShares: ChatSharesTable;
  chatRooms: { id: Generated<number>; title: string };
  members: { id: Generated<number>; disabled: number };
};

export type ArchiveDb = Kysely<Database & ArchiveTables>;

export function archiveDb(db: Db): ArchiveDb {
  return db.withTables<ArchiveTables>();
}

export type ShareRow = Selectable<ChatSharesTable>;

/** A conversation as an export writes it: with its room's title ('' when the room is gone). */
export interface ExportConversationRow {
  id: number;
  roomId: number;
  roomTitle: string | null;
  title: string;
  leafId: number | null;
  createdAt: number;
  updatedAt: number;
}

export type ExportMessageRow = Pick<
  Selectable<ChatMessagesTable>,
  | 'id'
  | 'parentId'
  | 'role'
  | 'content'
  | 'images'
  | 'status'
  | 'error'
  | 'promptTokens'
  | 'completionTokens'
  | 'tokensEstimated'
  | 'createdAt'
  | 'updatedAt'
>;

const shareColumns = [
  'id',
  'tokenHash',
  'token',
  'conversationId',
  'memberId',
  'public',
  'title',
  'roomId',
  'roomTitle',
  'messageCount',
  'snapshot',
  'createdAt',
] as const;

/** Export pages, imported rows and share links (Kysely only, dialect-neutral). */
export class ArchiveRepository {
  constructor(readonly db: ArchiveDb) {}

  /** The member's conversations after `afterId`, oldest first: one page of an export. */
  conversationsPage(
    memberId: number,
    afterId: number,
    limit: number,
    onlyId?: number,
  ): Promise<ExportConversationRow[]> {
    let query = this.db
      .selectFrom('chatConversations')
      .leftJoin('chatRooms', 'chatRooms.id', 'chatConversations.roomId')
      .select([
        'chatConversations.id',
        'chatConversations.roomId',
        'chatRooms.title as roomTitle',
        'chatConversations.title',
        'chatConversations.leafId',
        'chatConversations.createdAt',
        'chatConversations.updatedAt',
      ])
      .where('chatConversations.memberId', '=', memberId)
      .where('chatConversations.id', '>', afterId);
    if (onlyId !== undefined) query = query.where('chatConversations.id', '=', onlyId);
    return query.orderBy('chatConversations.id').limit(limit).execute();
  }

  /** Every message of a conversation, oldest first (parents before their children). */
  messagesOf(conversationId: number): Promise<ExportMessageRow[]> {
    return this.messagesPage(conversationId, 0);
  }

  /** A conversation's messages after `afterId`, oldest first, `limit` of them at most. */
  messagesPage(
    conversationId: number,
    afterId: number,
    limit?: number,
  ): Promise<ExportMessageRow[]> {
    let query = this.db
      .selectFrom('chatMessages')
      .select([
        'id',
        'parentId',
        'role',
        // An answer still streaming is exported with the text stored so far.
        storedContent.as('content'),
        'images',
        'status',
        'error',
        'promptTokens',
        'completionTokens',
        'tokensEstimated',
        'createdAt',
        'updatedAt',
      ])
      .where('conversationId', '=', conversationId)
      .where('id', '>', afterId)
      .orderBy('id');
    if (limit !== undefined) query = query.limit(limit);
    return query.execute();
  }

  roomTitle(roomId: number): Promise<string | undefined> {
    return this.db
      .selectFrom('chatRooms')
      .select('title')
      .where('id', '=', roomId)
      .executeTakeFirst()
      .then((row) => row?.title);
  }

  async insertShare(row: Insertable<ChatSharesTable>): Promise<number> {
    const { id } = await this.db
      .insertInto('chatShares')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /**
   * The link with this hash while its owner's account is enabled: a disabled member's links are
   * gone to everyone, as revoked ones are, and back when the account is enabled again (they are
   * kept, not deleted).
   */
  findShareByHash(tokenHash: string): Promise<ShareRow | undefined> {
    return this.db
      .selectFrom('chatShares')
      .innerJoin('members', 'members.id', 'chatShares.memberId')
      .select(shareColumns.map((column) => `chatShares.${column}` as const))
      .where('chatShares.tokenHash', '=', tokenHash)
      .where('members.disabled', '=', 0)
      .executeTakeFirst();
  }

  findShare(id: number, memberId: number): Promise<ShareRow | undefined> {
    return this.db
      .selectFrom('chatShares')
      .select(shareColumns)
      .where('id', '=', id)
      .where('memberId', '=', memberId)
      .executeTakeFirst();
  }

  /** The member's links, newest first, without their snapshots. */
  listShares(memberId: number, limit: number): Promise<Omit<ShareRow, 'snapshot' | 'tokenHash'>[]> {
    return this.db
      .selectFrom('chatShares')
      .select([
        'id',
        'token',
        'conversationId',
        'memberId',
        'public',
        'title',
        'roomId',
        'roomTitle',
        'messageCount',
        'createdAt',
      ])
      .where('memberId', '=', memberId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async countShares(memberId: number): Promise<number> {
    const row = await this.db
      .selectFrom('chatShares')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('memberId', '=', memberId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** True when the member's link existed and is now gone. */
  async deleteShare(id: number, memberId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('chatShares')
      .where('id', '=', id)
      .where('memberId', '=', memberId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
