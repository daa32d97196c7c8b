import type { MessageStatus } from '@atrium/shared/contract/chat';
import { sql, type Kysely, type Updateable } from 'kysely';
import { isPostgres } from '../../../db/columns';
import {
  messageColumns,
  type ChatDb,
  type ChatMessagesTable,
  type MessageRow,
} from '../chat.tables';

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

/**
 * The one statement of every flush, per dialect: the rows come as one JSON array of
 * [id, text, seq]. Only the new text travels and is bound, so a write costs what the answers
 * gained, not their length. A row appends only when its seq is the one before (`seq - 1`); one
 * already at `seq` is a write that committed though its caller saw it fail, and is left as it is,
 * so a retried write never doubles text. On SQLite the `+` keeps the status index out of the
 * plan: with it the planner reads every streaming row and scans the JSON for each (2.3 s for
 * 1,000 answers, against 60 ms through the ids' primary key).
 */
const appendSql = (postgres: boolean, rows: string, writer: string, now: number) => {
  const source = postgres
    ? sql`select (r->>0)::integer as vid, r->>1 as vtext, (r->>2)::integer as vseq
        from jsonb_array_elements(cast(${rows} as jsonb)) as r`
    : sql`select json_extract(value, '$[0]') as vid, json_extract(value, '$[1]') as vtext,
        json_extract(value, '$[2]') as vseq from json_each(${rows})`;
  const status = sql.raw(postgres ? 'chat_messages.status' : '+chat_messages.status');
  return sql<{ id: number }>`update chat_messages
    set content = case when chat_messages.seq = v.vseq - 1
          then chat_messages.content || v.vtext else chat_messages.content end,
        seq = v.vseq,
        updated_at = ${now}
    from (${source}) as v
    where chat_messages.id = v.vid and chat_messages.seq in (v.vseq - 1, v.vseq)
      and ${status} = 'streaming' and chat_messages.writer_instance = ${writer}
    returning chat_messages.id`;
};

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
   * Appends the new text of many streaming messages in one statement (appendSql), so a thousand
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
      const { rows: changed } = await appendSql(postgres, rows, writer, now).execute(this.db);
      for (const row of changed) written.add(Number(row.id));
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
