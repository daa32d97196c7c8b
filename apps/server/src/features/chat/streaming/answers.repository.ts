import type { MessageStatus } from '@atrium/shared/contract/chat';
import { CompiledQuery, type Kysely, type Updateable } from 'kysely';
import { isPostgres } from '../../../db/columns';
import {
  messageColumns,
  type ChatDb,
  type ChatMessagesTable,
  type MessageRow,
} from '../chat.tables';
import { appendSql } from './append-sql.mjs';
import type { AppendThread } from './append-thread';

/** The text a streaming message gained since its last write, as the flusher appends it. */
export interface ContentAppend {
  id: number;
  /** Appended to the stored content. */
  text: string;
  /** The delta's number: the row's seq goes from `seq - 1` to `seq`. */
  seq: number;
}

/** Rows per statement: one JSON parameter carries them, so any count has the same statement. */
const FLUSH_BATCH = 1_000;

const appendStatements = { sqlite: appendSql(false), postgres: appendSql(true) };

/**
 * The rows of answers being written (Kysely only, dialect-neutral): their text as it streams,
 * their end, and the answers whose writer is gone.
 */
export class AnswerRepository {
  /**
   * `thread`: on a SQLite file, the thread that runs the flush's appends beside the event loop
   * (append-thread.ts); without it they run on `db`'s connection.
   */
  constructor(
    readonly db: ChatDb,
    private readonly thread?: AppendThread,
  ) {}

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
   * Appends the new text of many streaming messages in one statement (append-sql.mjs), so a thousand
   * live streams cost one write per flush, not a thousand. Only rows still streaming and written
   * by `writer` change; answers the ids that did, so the writer learns which answers another
   * instance has ended meanwhile (it took this one for dead).
   */
  async appendContent(
    appends: readonly ContentAppend[],
    writer: string,
    now: number,
  ): Promise<Set<number>> {
    const written = new Set<number>();
    const postgres = isPostgres(this.db as Kysely<unknown>);
    for (let i = 0; i < appends.length; i += FLUSH_BATCH) {
      const rows = JSON.stringify(
        appends.slice(i, i + FLUSH_BATCH).map((a) => [a.id, a.text, a.seq]),
      );
      for (const id of await this.append(postgres, rows, writer, now)) written.add(id);
    }
    return written;
  }

  private async append(
    postgres: boolean,
    rows: string,
    writer: string,
    now: number,
  ): Promise<number[]> {
    if (!postgres && this.thread) return this.thread.append(rows, writer, now);
    const text = postgres ? appendStatements.postgres : appendStatements.sqlite;
    const { rows: changed } = await this.db.executeQuery<{ id: number }>(
      CompiledQuery.raw(text, [now, rows, writer]),
    );
    return changed.map((row) => Number(row.id));
  }

  /** Ends the writer thread, if any, after the writes under way. */
  async close(): Promise<void> {
    await this.thread?.close();
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
