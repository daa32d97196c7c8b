import {
  chatExportFile,
  chatExportFormat,
  chatExportVersion,
  chatImportMaxConversations,
  chatImportMaxTotalMessages,
  exportedConversation,
  type ChatExportFile,
  type ChatImportResponse,
  type ExportedConversation,
} from '@atrium/shared/contract/chat-export';
import { dataPathsOf } from '@atrium/shared/file-refs';
import { sql, type QueryExecutorProvider } from 'kysely';
import { sqliteFileOf, type Db } from '../../../db/index';
import type { z } from 'zod';
import { ApiError, message, type MessageRef } from '../../../http/envelope';
import { describeZodError } from '../../../http/errors';
import type { MemberPrincipal } from '../../../http/principal';
import { holdFiles, type ImageAccess } from '../../library/index';
import type { RoomsService } from '../../rooms/index';
import type { ArchiveJob, ArchiveJobs } from './archive-jobs';
import { parseExport } from './archive-parse';
import { prepare, writeOnThread } from './archive-writer';
import { storedError } from '../chat-texts';
import {
  conversationColumns,
  conversationValues,
  messageColumns,
  messageValues,
} from './import-rows.mjs';
import { ImportCursor } from './import-cursor.mjs';

const atFile = (ref: MessageRef): MessageRef => ({ ...ref, field: 'file' });
const atRoom = (ref: MessageRef): MessageRef => ({ ...ref, field: 'roomId' });

const Messages = {
  notJson: (reason: string) => atFile(message('chat.importNotJson', { reason })),
  notExport: atFile(message('chat.importNotExport', { format: chatExportFormat })),
  wrongVersion: (version: unknown) =>
    atFile(
      message('chat.importWrongVersion', {
        version: JSON.stringify(version) ?? 'undefined',
        expected: chatExportVersion,
      }),
    ),
  invalid: (where: string, reason: MessageRef) =>
    atFile(message('chat.importInvalid', { where, reason })),
  tooManyMessages: atFile(
    message('chat.importTooManyMessages', { max: chatImportMaxTotalMessages }),
  ),
  roomClosed: atRoom(message('chat.importRoomClosed')),
  roomsMissing: (rooms: string) => atRoom(message('chat.importRoomsMissing', { rooms })),
  streamingAnswer: storedError(message('chat.answerExportedStreaming')),
} as const;

/**
 * The event loop is given a turn after this much work: on SQLite every statement runs on it, so
 * a 10 MB import done in one go would hold every other member's calls for seconds.
 */
const SLICE_MS = 10;
/** Rows one write transaction holds at most (a transaction is never split by a turn). */
const BATCH_ROWS = 500;

/** The file without its conversations, which are checked one by one. */
const fileHead = chatExportFile.omit({ conversations: true });

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Inserts one row of `columns` (import-rows.mjs) and answers its id. */
async function insertRow(
  trx: QueryExecutorProvider,
  table: string,
  columns: readonly string[],
  values: readonly (string | number | null)[],
): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into ${sql.table(table)}
    (${sql.join(columns.map((column) => sql.ref(column)))})
    values (${sql.join(values)}) returning id`.execute(trx);
  return Number(rows[0]?.id);
}

/** Gives the event loop a turn when the current slice of work has run SLICE_MS. */
export function slicer() {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await turn();
    since = performance.now();
  };
}

/**
 * Importing an export file (issue 18, point 4), bounded (issue 26, point 8): one import or export
 * at a time per member (ArchiveJobs), at most chatImportMaxTotalMessages messages, checked
 * conversation by conversation and written in short transactions with a turn of the event loop
 * between them. All or nothing: everything that can refuse the file is checked before the first
 * write; a write that fails deletes what the import wrote, and an import whose process died is
 * undone by the next job of that member (the job row lists what it wrote).
 */
export class ArchiveImport {
  constructor(
    private readonly deps: {
      db: Db;
      rooms: RoomsService;
      images: ImageAccess;
      jobs: ArchiveJobs;
    },
  ) {}

  /**
   * Reads and checks an export file: every refusal names what is wrong and where. The JSON is
   * parsed on a thread (archive-parse.ts); the checks run here, a conversation at a time.
   */
  async parseFile(text: string): Promise<ChatExportFile> {
    const parsed = await parseExport(text);
    if ('notJson' in parsed) throw new ApiError(Messages.notJson(parsed.notJson));
    try {
      return await this.check(parsed.head, parsed.count, parsed.next);
    } finally {
      await parsed.close();
    }
  }

  /** The file's head, then each of its `count` conversations as `next` hands them over. */
  private async check(
    head: Record<string, unknown>,
    count: number,
    next: () => unknown,
  ): Promise<ChatExportFile> {
    if (head.format !== chatExportFormat) throw new ApiError(Messages.notExport);
    if (head.version !== chatExportVersion) throw new ApiError(Messages.wrongVersion(head.version));
    /** A refusal naming where in the file (`at`, then the issue's own path) and what is wrong. */
    const refuse = (reason: MessageRef, at: string[]) => {
      const where = [...at, ...(reason.field ? [reason.field] : [])].join('.') || 'file';
      const { field: _field, ...ref } = reason;
      return new ApiError(Messages.invalid(where, ref));
    };
    const invalid = (error: z.ZodError, value: unknown, at: string[]) =>
      refuse(describeZodError(error, value), at);
    // The head and the list's length first, then each conversation in its own step.
    const shape = fileHead.safeParse(head);
    if (!shape.success) throw invalid(shape.error, head, []);
    if (count < 0) throw refuse(message('chat.importNotArray'), ['conversations']);
    if (count === 0) throw refuse(message('chat.importNoConversation'), ['conversations']);
    if (count > chatImportMaxConversations)
      throw refuse(
        message('chat.importTooManyConversations', { max: chatImportMaxConversations }),
        ['conversations'],
      );
    const conversations: ExportedConversation[] = [];
    let messages = 0;
    const slice = slicer();
    for (let i = 0; i < count; i++) {
      const value = next();
      const parsed = exportedConversation.safeParse(value);
      if (!parsed.success) throw invalid(parsed.error, value, ['conversations', String(i)]);
      messages += parsed.data.messages.length;
      if (messages > chatImportMaxTotalMessages) throw new ApiError(Messages.tooManyMessages);
      conversations.push(parsed.data);
      await slice();
    }
    return { ...shape.data, conversations };
  }

  async run(
    member: MemberPrincipal,
    text: string,
    roomId: number | undefined,
  ): Promise<ChatImportResponse> {
    const job = await this.deps.jobs.start(member.id, 'import');
    try {
      const file = await this.parseFile(text);
      const roomOf = await this.rooms(file, roomId);
      const { kept, dropped } = await this.images(member, file);
      return await this.write(member, job, file, roomOf, kept, dropped);
    } finally {
      await job.end();
    }
  }

  /** Where each conversation goes: the room it came from, or `roomId`; refused when closed. */
  private async rooms(file: ChatExportFile, roomId: number | undefined) {
    const roomOf = new Map<number, number>();
    if (roomId !== undefined) {
      if (!(await this.deps.rooms.findEnabled(roomId))) throw new ApiError(Messages.roomClosed);
      for (const c of file.conversations) roomOf.set(c.room.id, roomId);
      return roomOf;
    }
    const missing = new Map<number, string>();
    for (const c of file.conversations) {
      if (roomOf.has(c.room.id) || missing.has(c.room.id)) continue;
      if (await this.deps.rooms.findEnabled(c.room.id)) roomOf.set(c.room.id, c.room.id);
      else missing.set(c.room.id, c.room.title);
    }
    if (missing.size > 0) {
      const named = [...missing].map(([id, title]) => `"${title || id}" (#${id})`);
      throw new ApiError(Messages.roomsMissing(named.join(', ')));
    }
    return roomOf;
  }

  /** Images stay only when they are in the member's own image library. */
  private async images(member: MemberPrincipal, file: ChatExportFile) {
    const kept = new Set<string>();
    const dropped = new Set<string>();
    for (const c of file.conversations) {
      for (const m of c.messages) {
        for (const path of m.images) {
          if (kept.has(path) || dropped.has(path)) continue;
          if (await this.deps.images.owns(member.id, path)) kept.add(path);
          else dropped.add(path);
        }
      }
    }
    return { kept, dropped };
  }

  /**
   * Writes the conversations' rows (import-rows.mjs, as the thread does), BATCH_ROWS rows or SLICE_MS
   * a transaction, each recording in the member's job row what is written so far. On a SQLite
   * file the same rows are written on a thread instead (archive-writer.ts); here on PostgreSQL,
   * whose pool does not hold the event loop, and on an in-memory SQLite no thread can open.
   */
  private async write(
    member: MemberPrincipal,
    job: ArchiveJob,
    file: ChatExportFile,
    roomOf: Map<number, number>,
    kept: Set<string>,
    dropped: Set<string>,
  ): Promise<ChatImportResponse> {
    // SQLite: written on a thread with its own connection (archive-writer.ts), off the event loop.
    const sqliteFile = await sqliteFileOf(this.deps.db);
    if (sqliteFile !== undefined) {
      const streamingError = Messages.streamingAnswer;
      const conversations = file.conversations;
      const input = { member, job, conversations, roomOf, kept, dropped, streamingError };
      return writeOnThread({ ...input, db: this.deps.db, file: sqliteFile });
    }
    const created: ChatImportResponse['conversations'] = [];
    const written: number[] = [];
    const stored = { roomOf, kept, streamingError: Messages.streamingAnswer };
    let count = 0;
    // Where the writing stands across transactions (import-cursor.mjs, as the thread's).
    const cursor = new ImportCursor(file.conversations);
    let idOf = new Map<number, number>();
    try {
      while (!cursor.done) {
        await this.deps.db.transaction().execute(async (trx) => {
          const started = performance.now();
          let rows = 0;
          const hasRoom = () => rows < BATCH_ROWS && performance.now() - started < SLICE_MS;
          while (!cursor.done && hasRoom()) {
            const exported = cursor.current;
            if (!exported) break;
            // The same rows, as the same SQL, as the thread writes on SQLite (import-rows.mjs).
            const c = prepare(stored, exported);
            if (cursor.needsRow) {
              written.push(
                await insertRow(trx, 'chat_conversations', conversationColumns, [
                  ...conversationValues(c, member.id),
                ]),
              );
              idOf = new Map();
              cursor.rowWritten();
            }
            const conversationId = written.at(-1) ?? 0;
            for (let m = c.messages[cursor.next]; m && hasRoom(); m = c.messages[cursor.next]) {
              const parentId = m.parentId === null ? null : (idOf.get(m.parentId) ?? null);
              const id = await insertRow(
                trx,
                'chat_messages',
                messageColumns,
                messageValues(conversationId, parentId, m),
              );
              idOf.set(m.id, id);
              if (m.holds) {
                const paths = dataPathsOf(JSON.parse(m.images) as string[]);
                await holdFiles(
                  trx,
                  { kinds: ['chatImage'], holderId: id, memberId: member.id },
                  paths.map((path) => ({ kind: 'chatImage' as const, path })),
                );
              }
              count += 1;
              rows += 1;
              cursor.messageWritten();
            }
            if (cursor.next < c.messages.length) break;
            if (c.leafId !== null)
              await sql`update chat_conversations set leaf_id = ${idOf.get(c.leafId) ?? null}
                where id = ${conversationId}`.execute(trx);
            created.push({ id: conversationId, roomId: c.roomId, title: exported.title });
            cursor.conversationWritten();
          }
          await job.record(written, trx);
        });
        await turn();
      }
    } catch (error) {
      await job.undo(written);
      throw error;
    }
    return { conversations: created, messages: count, droppedImages: [...dropped] };
  }
}
