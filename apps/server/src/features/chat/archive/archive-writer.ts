import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import {
  errorFromThread,
  stopThread,
  threadStopFlag,
  type ThreadError,
} from '../../../db/sqlite-connection.mjs';
import type { ChatImportResponse, ExportedConversation } from '@atrium/shared/contract/chat-export';
import { dataPathsOf } from '@atrium/shared/file-refs';
import { sql } from 'kysely';
import { pauseFtsMerging } from '../../../db/fts-merge';
import type { Db } from '../../../db/index';
import type { MemberPrincipal } from '../../../http/principal';
import { holdFiles } from '../../library/index';
import type { ArchiveJob } from './archive-jobs';
import type { ImportedConversation } from './import-rows.mjs';
import { errorToStore, titleToStore } from '../chat-texts';

/**
 * The worker sits next to this module in the sources and next to the bundle in dist (build.mjs
 * builds it there), so the same URL finds it in both.
 */
const workerFile = new URL('./archive-writer.worker.mjs', import.meta.url);

/**
 * A transaction of the thread writes at most this many rows, or for this long: the instance's
 * own writers wait for SQLite's write lock (blocking the event loop in better-sqlite3's busy
 * handler) at most about that long, but for a single insert in which FTS5 merges segments.
 */
const TX_ROWS = 100;
const TX_MS = 15;
/** The thread rests this long between transactions, so that a waiting writer gets the lock. */
const PAUSE_MS = 2;
/** Messages handed to the thread at once (a structured copy of about 100 KB). */
const BATCH_MESSAGES = 400;
/** Batches sent ahead of the one being written, so the thread never waits for the next. */
const AHEAD = 2;
/** How long one batch may take before the thread is deemed stuck (each is well under a second). */
const BATCH_TIMEOUT_MS = 60_000;
/** How long the thread's transactions wait for the write lock (db/index.ts waits as long). */
const BUSY_TIMEOUT_MS = 5_000;

type Prepared = ImportedConversation;

/** What the thread answers for a batch it wrote. */
interface Done {
  ids: number[];
  messages: number;
  /** Messages keeping images: their id and their images' JSON list. */
  holds: [number, string][];
}

type Reply = { done: Done } | { error: ThreadError };

export interface ThreadWrite {
  db: Db;
  /** The database's file (`sqliteFileOf`). */
  file: string;
  member: MemberPrincipal;
  job: ArchiveJob;
  conversations: readonly ExportedConversation[];
  roomOf: ReadonlyMap<number, number>;
  kept: ReadonlySet<string>;
  dropped: ReadonlySet<string>;
  /** The stored error of an answer exported while it was still being written. */
  streamingError: string;
}

/** A thread running archive-writer.worker.mjs, answering each batch in the order sent. */
class WriterThread {
  private readonly worker: Worker;
  private readonly waiting: { resolve: (done: Done) => void; reject: (error: Error) => void }[] =
    [];
  private failure: Error | undefined;
  private exited = false;
  /** Set to stop the thread between two transactions (`stop`). */
  private readonly retired = threadStopFlag();

  constructor(workerData: Record<string, unknown>) {
    this.worker = new Worker(workerFile, { workerData: { ...workerData, retired: this.retired } });
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => {
      if ('error' in reply) return this.fail(errorFromThread(reply.error));
      this.waiting.shift()?.resolve(reply.done);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      this.exited = true;
      this.fail(new Error(`the import's writer thread stopped (${String(code)})`));
    });
  }

  private fail(error: Error) {
    this.failure ??= error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.failure);
  }

  /** Sends a batch; the promise answers once it is written (bounded by BATCH_TIMEOUT_MS). */
  send(batch: Prepared[]): () => Promise<Done> {
    if (this.failure) throw this.failure;
    const written = new Promise<Done>((resolve, reject) => this.waiting.push({ resolve, reject }));
    // Awaited only later: a failure meanwhile must not count as an unhandled rejection.
    written.catch(() => undefined);
    this.worker.postMessage({ batch });
    return async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`the import's writer thread took over ${BATCH_TIMEOUT_MS} ms`));
        }, BATCH_TIMEOUT_MS);
      });
      try {
        return await Promise.race([written, timeout]);
      } finally {
        clearTimeout(timer);
      }
    };
  }

  /**
   * Ends the thread once it has closed its connection: gracefully after its last batch (stopped
   * instead if that takes over BUSY_TIMEOUT_MS), else at once, between two of its transactions
   * (by its stop flag: a SQLite thread is never terminated, `threadStopFlag`). Resolves once it
   * has exited, so that what it wrote can be undone.
   */
  async stop(graceful: boolean): Promise<void> {
    if (this.exited) return;
    const exit = once(this.worker, 'exit').catch(() => undefined);
    const retire = () => stopThread(this.retired);
    if (!graceful || this.failure) retire();
    this.worker.postMessage({});
    const late = setTimeout(retire, BUSY_TIMEOUT_MS);
    await exit;
    clearTimeout(late);
  }
}

/** The file's conversations as the thread writes them, BATCH_MESSAGES messages at a time. */
function* batchesOf(input: ThreadWrite): Generator<ExportedConversation[]> {
  let batch: ExportedConversation[] = [];
  let messages = 0;
  for (const c of input.conversations) {
    batch.push(c);
    messages += c.messages.length;
    if (messages >= BATCH_MESSAGES) {
      yield batch;
      batch = [];
      messages = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

/** The stored values of a conversation, on either path (here and ArchiveImport's own writes). */
export function prepare(
  input: Pick<ThreadWrite, 'roomOf' | 'kept' | 'streamingError'>,
  c: ExportedConversation,
): Prepared {
  return {
    roomId: input.roomOf.get(c.room.id) ?? c.room.id,
    title: titleToStore(c.title),
    leafId: c.leafId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    messages: c.messages.map((m) => {
      const images = m.role === 'user' ? m.images.filter((p) => input.kept.has(p)) : [];
      const streaming = m.status === 'streaming';
      return {
        id: m.id,
        parentId: m.parentId,
        role: m.role,
        content: m.content,
        images: JSON.stringify(images),
        // An answer exported mid-way is not being written here: it ends as interrupted.
        status: streaming ? 'interrupted' : m.status,
        error: streaming && !m.error ? input.streamingError : errorToStore(m.error),
        promptTokens: m.promptTokens,
        completionTokens: m.completionTokens,
        tokensEstimated: m.tokensEstimated ? 1 : 0,
        createdAt: m.createdAt,
        updatedAt: m.updatedAt,
        holds: images.length > 0,
      };
    }),
  };
}

/** The conversations the member's job row lists (what the thread committed), [] if unreadable. */
async function recorded(db: Db, memberId: number, instanceId: string): Promise<number[]> {
  try {
    const { rows } = await sql<{ ids: string }>`select conversation_ids as ids
      from chat_archive_jobs where member_id = ${memberId} and instance_id = ${instanceId}`.execute(
      db,
    );
    const value: unknown = JSON.parse(rows[0]?.ids ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];
  } catch {
    return [];
  }
}

/** Holds the kept images of the messages just written, in a transaction that writes first. */
async function hold(db: Db, memberId: number, holds: readonly [number, string][]) {
  if (holds.length === 0) return;
  await db.connection().execute(async (conn) => {
    // Immediate: the write lock first, so a commit of the thread cannot stale a read of it.
    await sql`begin immediate`.execute(conn);
    try {
      for (const [id, images] of holds) {
        const paths = dataPathsOf(JSON.parse(images) as string[]);
        await holdFiles(
          conn,
          { kinds: ['chatImage'], holderId: id, memberId },
          paths.map((path) => ({ kind: 'chatImage' as const, path })),
        );
      }
      await sql`commit`.execute(conn);
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * Writes an import on SQLite on a thread with a connection of its own (archive-writer.worker.mjs):
 * the statements, and FTS5 merging its segments inside them, then never hold the event loop
 * (issue 26, point 8). The thread writes what ArchiveImport's own writes do, in short
 * transactions, each recording the conversations written so far in the member's job row; the
 * images kept are held here once their messages are written. All or nothing: on any failure the
 * thread is stopped and every conversation the job row or its answers name is deleted.
 */
export async function writeOnThread(input: ThreadWrite): Promise<ChatImportResponse> {
  const { db, member, job } = input;
  const { rows } = await sql<{ instance: string }>`select instance_id as instance
    from chat_archive_jobs where member_id = ${member.id}`.execute(db);
  const instanceId = rows[0]?.instance;
  if (instanceId === undefined) throw new Error(`the import's job row is gone`);
  const thread = new WriterThread({
    file: input.file,
    busyTimeoutMs: BUSY_TIMEOUT_MS,
    memberId: member.id,
    instanceId,
    txRows: TX_ROWS,
    txMs: TX_MS,
    pauseMs: PAUSE_MS,
  });
  const created: ChatImportResponse['conversations'] = [];
  const written: number[] = [];
  let count = 0;
  const sent: { conversations: ExportedConversation[]; done: () => Promise<Done> }[] = [];
  const settle = async () => {
    const first = sent.shift();
    if (!first) return;
    const done = await first.done();
    written.push(...done.ids);
    first.conversations.forEach((c, i) => {
      const id = done.ids[i] ?? 0;
      created.push({ id, roomId: input.roomOf.get(c.room.id) ?? c.room.id, title: c.title });
    });
    count += done.messages;
    await hold(db, member.id, done.holds);
  };
  // A merge step on this thread would wait for the writer's lock, holding the event loop.
  const resumeMerging = pauseFtsMerging();
  try {
    for (const conversations of batchesOf(input)) {
      const batch = conversations.map((c) => prepare(input, c));
      sent.push({ conversations, done: thread.send(batch) });
      if (sent.length > AHEAD) await settle();
    }
    while (sent.length > 0) await settle();
    await thread.stop(true);
  } catch (error) {
    await thread.stop(false);
    const ids = new Set([...written, ...(await recorded(db, member.id, instanceId))]);
    await job.undo([...ids]);
    throw error;
  } finally {
    resumeMerging();
  }
  return { conversations: created, messages: count, droppedImages: [...input.dropped] };
}
