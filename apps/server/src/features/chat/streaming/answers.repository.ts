import type { MessageStatus } from '@atrium/shared/contract/chat';
import { CompiledQuery, type Kysely, type Updateable } from 'kysely';
import { isPostgres } from '../../../db/columns';
import {
  messageColumns,
  type ChatDb,
  type ChatMessagesTable,
  type MessageRow,
} from '../chat.tables';
import { appendSql, foldSql, liveSql, sweepSql } from './append-sql.mjs';
import { ftsQueueSql, INDEX_STEP } from './fts-queue-sql.mjs';
import { errorFromThread } from '../../../db/sqlite-connection.mjs';
import type { AppendThread, ThreadStep } from './append-thread';

/** The text a streaming message gained since its last write, as the flusher appends it. */
export interface ContentAppend {
  id: number;
  /** Appended to the stored content. */
  text: string;
  /** The delta's number: the row's seq goes from `seq - 1` to `seq`. */
  seq: number;
}

/** A streaming message's whole stored text, as its writer holds it, and that text's seq. */
export interface ContentFold {
  id: number;
  text: string;
  seq: number;
}

/**
 * A tick of the group commit (`AnswerRepository.tick`): the appends, then the tidying that
 * follows them: the folds, a step of the parts' sweep, a step of the search index's queue.
 */
export interface Tick {
  appends: readonly ContentAppend[];
  /** The appends are a write tried again (appendContent). */
  again: boolean;
  writer: string;
  folds: readonly ContentFold[];
  now: number;
  /** A sweep step over `limit` parts after the key `after`, if one is due. */
  sweep?: { after: number; limit: number };
  /** Whether a step of the search index's queue is due. */
  index: boolean;
}

/** One tidying step's outcome: its value, or the error it failed with. */
export type StepOutcome<T> = { value: T } | { error: unknown };

/**
 * What a tick's tidying did, for each step it asked for (none, when its appends failed):
 * `sweep`, the step's last key (undefined past the parts' end); `index`, whether the queue is
 * empty now.
 */
export interface Tidied {
  fold?: StepOutcome<void>;
  sweep?: StepOutcome<number | undefined>;
  index?: StepOutcome<boolean>;
}

const attempt = async <T>(step: () => Promise<T>): Promise<StepOutcome<T>> => {
  try {
    return { value: await step() };
  } catch (error) {
    return { error };
  }
};

const fromThread = <T, U>(step: ThreadStep<T> | undefined, map: (value: T) => U) =>
  step && ('error' in step ? { error: errorFromThread(step.error) } : { value: map(step.value) });

/** The JSON arrays of [id, text, seq] carrying `list`, FLUSH_BATCH rows each. */
function batches(list: readonly { id: number; text: string; seq: number }[]): string[] {
  const rows: string[] = [];
  for (let i = 0; i < list.length; i += FLUSH_BATCH) {
    rows.push(JSON.stringify(list.slice(i, i + FLUSH_BATCH).map((a) => [a.id, a.text, a.seq])));
  }
  return rows;
}

/** A message without its text, images and place in the conversation (`findState`). */
export type MessageState = Omit<MessageRow, 'content' | 'images' | 'role' | 'parentId'>;

/** A message's columns but its text (`findState`). */
const stateColumns = [
  'id',
  'conversationId',
  'status',
  'error',
  'modelId',
  'promptTokens',
  'completionTokens',
  'tokensEstimated',
  'seq',
  'writerInstance',
  'createdAt',
  'updatedAt',
] as const;

/** Rows per statement: one JSON parameter carries them, so any count has the same statement. */
const FLUSH_BATCH = 1_000;

const statementsFor = (postgres: boolean) => ({
  append: appendSql(postgres, false),
  appendAgain: appendSql(postgres, true),
  live: liveSql(postgres),
  fold: foldSql(postgres),
  sweep: sweepSql(postgres),
});
const statementsOf = { sqlite: statementsFor(false), postgres: statementsFor(true) };
type Statements = ReturnType<typeof statementsFor>;

/**
 * Indexes the messages queued for SQLite's search index (migration 2026_12_07_1000), a step of
 * `limit` per transaction on `db`'s connection, until the queue is empty or `steps` were taken:
 * answers whether it is empty. A search runs it first, so it sees every message as stored.
 * PostgreSQL has no queue.
 */
export async function indexQueuedMessages(db: ChatDb, steps = Infinity): Promise<boolean> {
  if (isPostgres(db as Kysely<unknown>)) return true;
  for (let step = 0; step < steps; step += 1) {
    const taken = await (db.isTransaction ? stepOn(db) : db.transaction().execute(stepOn));
    if (taken < INDEX_STEP) return true;
  }
  return false;
}

async function stepOn(trx: ChatDb): Promise<number> {
  await trx.executeQuery(CompiledQuery.raw(ftsQueueSql.index, [INDEX_STEP]));
  const cleared = await trx.executeQuery(CompiledQuery.raw(ftsQueueSql.clear, [INDEX_STEP]));
  return Number(cleared.numAffectedRows ?? 0);
}

/**
 * The rows of answers being written (Kysely only, dialect-neutral): their text as it streams,
 * their end, and the answers whose writer is gone.
 */
export class AnswerRepository {
  private readonly postgres: boolean;
  /** The group commit's statements in this database's dialect. */
  private readonly statements: Statements;

  /**
   * `thread`: on a SQLite file, the thread that runs the flush's appends beside the event loop
   * (append-thread.ts); without it they run on `db`'s connection.
   */
  constructor(
    readonly db: ChatDb,
    private readonly thread?: AppendThread,
  ) {
    this.postgres = isPostgres(db as Kysely<unknown>);
    this.statements = this.postgres ? statementsOf.postgres : statementsOf.sqlite;
  }

  /**
   * The message with its whole stored text (its parts added while it streams). `lock`: in a
   * transaction on PostgreSQL, its row is locked first (SQLite's writer holds the whole file).
   */
  async findMessage(id: number, { lock = false } = {}): Promise<MessageRow | undefined> {
    if (lock && this.postgres) {
      await this.db
        .selectFrom('chatMessages')
        .select('id')
        .where('id', '=', id)
        .forUpdate()
        .execute();
    }
    return this.db
      .selectFrom('chatMessages')
      .select(messageColumns)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Where a message stands, without its text (the checks made again and again while it streams). */
  findState(id: number): Promise<MessageState | undefined> {
    return this.db
      .selectFrom('chatMessages')
      .select(stateColumns)
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
   * Appends the new text of many streaming messages as parts, in one statement (append-sql.mjs),
   * so a thousand live streams cost one write per flush, not a thousand. Only answers still
   * streaming and written by `writer` take theirs; answers the ids that did, so the writer learns
   * which answers another instance has ended meanwhile (it took this one for dead). `again`: the
   * same write tried again after a failure (it is then never stored twice).
   */
  async appendContent(
    appends: readonly ContentAppend[],
    writer: string,
    again = false,
  ): Promise<Set<number>> {
    const written = new Set<number>();
    for (const rows of batches(appends)) {
      for (const id of await this.append(rows, writer, again)) written.add(id);
    }
    return written;
  }

  /**
   * A tick of the group commit: `written` answers as soon as the appends have committed (as
   * `appendContent`), `tidied` once the fold, sweep and index steps that follow them are done.
   * On the writer thread they all go in one message and one turn to write, so none waits for
   * the event loop to hear of the one before.
   */
  tick(tick: Tick): { written: Promise<Set<number>>; tidied: Promise<Tidied> } {
    if (this.thread && !this.postgres) {
      const { written, tidied } = this.thread.tick({
        rows: batches(tick.appends),
        writer: tick.writer,
        again: tick.again,
        folds: batches(tick.folds),
        now: tick.now,
        sweep: tick.sweep ?? null,
        index: tick.index ? INDEX_STEP : null,
      });
      return {
        written: written.then((ids) => new Set(ids)),
        tidied: tidied.then((tidy) => ({
          fold: fromThread(tidy.fold, () => undefined),
          sweep: fromThread(tidy.sweep, (bound) => bound ?? undefined),
          index: fromThread(tidy.index, (taken) => taken < INDEX_STEP),
        })),
      };
    }
    const written = this.appendContent(tick.appends, tick.writer, tick.again);
    const tidied = written.then(
      () => this.tidy(tick),
      (): Tidied => ({}),
    );
    return { written, tidied };
  }

  /** The tidying of a tick, step by step on this repository's connection. */
  private async tidy({ folds, writer, now, sweep, index }: Tick): Promise<Tidied> {
    return {
      fold:
        folds.length > 0 ? await attempt(() => this.foldAnswers(folds, writer, now)) : undefined,
      sweep: sweep ? await attempt(() => this.sweepParts(sweep.after, sweep.limit)) : undefined,
      index: index ? await attempt(() => this.indexEnded()) : undefined,
    };
  }

  private async append(rows: string, writer: string, again: boolean): Promise<number[]> {
    if (this.thread && !this.postgres) {
      // On the thread, appends alone are a tick without steps.
      const tick = { rows: [rows], writer, again, folds: [], now: 0, sweep: null, index: null };
      const { written, tidied } = this.thread.tick(tick);
      // Without steps, a failed tick is the appends' failure (`written` tells it).
      tidied.catch(() => undefined);
      return written;
    }
    const run = async (db: ChatDb, text: string) =>
      (await db.executeQuery<{ id: number }>(CompiledQuery.raw(text, [rows, writer]))).rows.map(
        (row) => Number(row.id),
      );
    if (!again) return run(this.db, this.statements.append);
    return this.inTransaction(async (trx) => {
      await run(trx, this.statements.appendAgain);
      return run(trx, this.statements.live);
    });
  }

  /**
   * Folds the writer's text into its streaming answers' rows (append-sql.mjs, `foldSql`): each
   * row takes its whole stored text and seq, unless it already has that seq or a later one. On
   * this repository's connection (the writer thread folds in its ticks).
   */
  async foldAnswers(folds: readonly ContentFold[], writer: string, now: number): Promise<void> {
    const { text, bind } = this.statements.fold;
    // One statement per batch, a transaction of its own.
    for (const rows of batches(folds))
      await this.db.executeQuery(CompiledQuery.raw(text, bind(rows, writer, now)));
  }

  /**
   * One step of the sweep of parts no reader needs, over at most `limit` parts after the key
   * `after` (append-sql.mjs, `sweepSql`). Answers the step's last key, or undefined when there
   * is no part after `after` (the next step starts from 0).
   */
  async sweepParts(after: number, limit: number): Promise<number | undefined> {
    const sweep = this.statements.sweep;
    const boundOf = (row: { bound: number | string | null } | undefined) =>
      row?.bound === null || row?.bound === undefined ? undefined : Number(row.bound);
    if ('step' in sweep) {
      const { rows } = await this.db.executeQuery<{ bound: number | string | null }>(
        CompiledQuery.raw(sweep.step, [after, limit]),
      );
      return boundOf(rows[0]);
    }
    return this.inTransaction(async (trx) => {
      const [row] = (
        await trx.executeQuery<{ bound: number | string | null }>(
          CompiledQuery.raw(sweep.bound, [after, limit]),
        )
      ).rows;
      const bound = boundOf(row);
      if (bound !== undefined)
        await trx.executeQuery(CompiledQuery.raw(sweep.clear, [after, bound]));
      return bound;
    });
  }

  /** Runs `work` in a transaction: the one this repository is on, if any. */
  private inTransaction<T>(work: (trx: ChatDb) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
  }

  /**
   * One step of the search index's queue (fts-queue-sql.mjs) on this repository's connection:
   * answers whether the queue is empty now.
   */
  async indexEnded(): Promise<boolean> {
    return indexQueuedMessages(this.db, 1);
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
