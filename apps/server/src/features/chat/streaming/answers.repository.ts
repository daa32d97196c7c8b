import type { MessageStatus } from '@atrium/shared/contract/chat';
import { sql, type Updateable } from 'kysely';
import {
  messageColumns,
  type ChatDb,
  type ChatMessagesTable,
  type MessageRow,
} from '../chat.tables';

/** A streaming message's content as the flusher writes it. */
export interface ContentSnapshot {
  id: number;
  content: string;
  seq: number;
}

/** Rows per batched content update: keeps bound parameters far below every dialect's limit. */
const FLUSH_BATCH = 200;

/**
 * The rows of answers being written (Kysely only, dialect-neutral): their text as it streams,
 * their end, and the answers whose writer is gone.
 */
export class AnswerRepository {
  constructor(readonly db: ChatDb) {}

  findMessage(id: number): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('chatMessages')
      .select(messageColumns)
      .where('id', '=', id)
      .executeTakeFirst();
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
