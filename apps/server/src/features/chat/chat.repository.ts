import type { MessageStatus } from '@atrium/shared/contract/chat';
import { sql, type Insertable, type Updateable } from 'kysely';
import { containsText } from '../../db/search';
import { branchPath, type BranchNode } from './branches';
import { MAX_ANSWER_CHARS } from './job';
import type {
  ChatConversationsTable,
  ChatDb,
  ChatMessagesTable,
  ConversationRow,
  MessageRow,
} from './chat.tables';

const conversationColumns = [
  'id',
  'roomId',
  'memberId',
  'title',
  'leafId',
  'createdAt',
  'updatedAt',
] as const;

/**
 * A message's text as every read sees it: never longer than an answer may grow (issue 26), also
 * for rows stored before answers were capped, so one such row cannot make a list of 80 MB.
 */
const boundedContent = sql<string>`substr(${sql.ref('chatMessages.content')}, 1, ${sql.lit(
  MAX_ANSWER_CHARS,
)})`.as('content');

const messageColumns = [
  'chatMessages.id',
  'chatMessages.conversationId',
  'chatMessages.parentId',
  'chatMessages.role',
  boundedContent,
  'chatMessages.images',
  'chatMessages.status',
  'chatMessages.error',
  'chatMessages.modelId',
  'chatMessages.promptTokens',
  'chatMessages.completionTokens',
  'chatMessages.tokensEstimated',
  'chatMessages.seq',
  'chatMessages.writerInstance',
  'chatMessages.createdAt',
  'chatMessages.updatedAt',
] as const;

/** A streaming message's content as the flusher writes it. */
export interface ContentSnapshot {
  id: number;
  content: string;
  seq: number;
}

/** Rows per batched content update: keeps bound parameters far below every dialect's limit. */
const FLUSH_BATCH = 200;

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

  findMessage(id: number): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('chatMessages')
      .select(messageColumns)
      .where('id', '=', id)
      .executeTakeFirst();
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

  streamingIn(conversationId: number): Promise<{ id: number; writerInstance: string | null }[]> {
    return this.db
      .selectFrom('chatMessages')
      .select(['id', 'writerInstance'])
      .where('conversationId', '=', conversationId)
      .where('status', '=', 'streaming')
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

  /**
   * Ends a generation: only while it is still streaming and still written by `writer`, so a late
   * writer never undoes an end, and the end of a dead writer's answer never ends the answer a
   * live instance started in its place since.
   */
  async finishMessage(
    id: number,
    writer: string | null,
    changes: Updateable<ChatMessagesTable> & { status: MessageStatus },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('chatMessages')
      .set({ ...changes, writerInstance: null })
      .where('id', '=', id)
      .where('status', '=', 'streaming')
      .where((eb) =>
        writer === null ? eb('writerInstance', 'is', null) : eb('writerInstance', '=', writer),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Puts right the stored reason of an ended answer (`from` → `to`) while it is still the one
   * stored: false when the answer has changed since (regenerated, or ended otherwise).
   */
  async replaceEndReason(id: number, from: string, to: string): Promise<boolean> {
    const result = await this.db
      .updateTable('chatMessages')
      .set({ error: to })
      .where('id', '=', id)
      .where('status', '=', 'interrupted')
      .where('error', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Writes the content of many streaming messages in few statements (one per batch), so a
   * thousand live streams cost a handful of writes per flush, not a thousand. Only rows still
   * streaming and written by `writer` change; answers the ids that did, so the writer learns
   * which answers another instance has ended meanwhile (it took this one for dead).
   */
  async flushContent(
    snapshots: readonly ContentSnapshot[],
    writer: string,
    now: number,
  ): Promise<Set<number>> {
    const written = new Set<number>();
    for (let i = 0; i < snapshots.length; i += FLUSH_BATCH) {
      const batch = snapshots.slice(i, i + FLUSH_BATCH);
      const contentCase = sql.join(
        batch.map((s) => sql`when ${s.id} then cast(${s.content} as text)`),
        sql` `,
      );
      const seqCase = sql.join(
        batch.map((s) => sql`when ${s.id} then cast(${s.seq} as integer)`),
        sql` `,
      );
      const { rows } = await sql<{ id: number }>`update chat_messages
        set content = case id ${contentCase} end,
            seq = case id ${seqCase} end,
            updated_at = ${now}
        where id in (${sql.join(batch.map((s) => s.id))})
          and status = 'streaming' and writer_instance = ${writer}
        returning id`.execute(this.db);
      for (const row of rows) written.add(Number(row.id));
    }
    return written;
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
   * The history a new answer is written from: up to `limit` messages of its branch before
   * `beforeId` (the answer), newest first.
   */
  async history(conversationId: number, beforeId: number, limit: number): Promise<MessageRow[]> {
    const nodes = await this.branchNodes(conversationId);
    const path = branchPath(nodes, beforeId);
    const ids = path.slice(0, -1).slice(-limit);
    return (await this.messagesByIds(ids)).reverse();
  }

  /**
   * Answers still streaming whose writer has no heartbeat at or after `aliveSince` (dead, gone,
   * or never recorded): one query through the status index, joining `instances` by key.
   */
  abandoned(aliveSince: number): Promise<{ id: number; writerInstance: string | null }[]> {
    return this.db
      .selectFrom('chatMessages')
      .leftJoin('instances', (join) =>
        join
          .onRef('instances.id', '=', 'chatMessages.writerInstance')
          .on('instances.heartbeatAt', '>=', aliveSince),
      )
      .select(['chatMessages.id', 'chatMessages.writerInstance'])
      .where('chatMessages.status', '=', 'streaming')
      .where('instances.id', 'is', null)
      .execute();
  }
}
