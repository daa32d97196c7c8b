import type { DocumentStatus } from '@atrium/shared/contract/chat-docs';
import { PostgresAdapter, sql, type Insertable } from 'kysely';
import type {
  ChatCitationsTable,
  ChatDocumentsTable,
  DocsDb,
  DocumentRow,
} from './chat-docs.tables';

/** A conversation's document as listed: its row, the blob it reads, and how reading it goes. */
export interface ListedDocument extends DocumentRow {
  blobId: number | null;
  status: DocumentStatus | null;
  progress: number | null;
  pages: number | null;
  passages: number | null;
  error: string | null;
  embeddingModel: string | null;
}

export interface NewPassage {
  seq: number;
  page: number;
  text: string;
  /** The indexed terms (passages.ts `indexText`). */
  terms: string;
}

export interface FoundPassage {
  id: number;
  blobId: number;
  page: number;
  text: string;
  vector: string | null;
}

/** Rows a multi-row insert carries at most (PostgreSQL binds at most 65,535 values). */
const INSERT_BATCH = 200;

/** Queries of documents, reading jobs, passages and citations (both dialects). */
export class ChatDocsRepository {
  readonly postgres: boolean;

  constructor(readonly db: DocsDb) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /** The member's conversation, or undefined for anyone else's. */
  conversation(id: number, memberId: number) {
    return this.db
      .selectFrom('chatConversations')
      .select(['id', 'title'])
      .where('id', '=', id)
      .where('memberId', '=', memberId)
      .executeTakeFirst();
  }

  /** A new conversation (untitled: "New chat") for a draft's first documents; its id. */
  async insertConversation(row: {
    roomId: number;
    memberId: number;
    createdAt: number;
  }): Promise<number> {
    const { id } = await this.db
      .insertInto('chatConversations')
      .values({ ...row, title: '', updatedAt: row.createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** The member's own library file at `path` (any of their libraries), with its blob. */
  ownFile(memberId: number, path: string) {
    return this.db
      .selectFrom('files')
      .select(['name', 'ext', 'blobId'])
      .where('ownerType', '=', 'member')
      .where('ownerId', '=', memberId)
      .where('path', '=', path)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * The conversation's documents, oldest first, each with the blob its reference keeps now (a
   * file replaced in place moves it) and that blob's reading job, when there is one.
   */
  listDocuments(conversationId: number): Promise<ListedDocument[]> {
    return this.db
      .selectFrom('chatDocuments as d')
      .leftJoin('fileRefs as r', (join) =>
        join
          .on('r.kind', '=', 'chatDocument')
          .onRef('r.holderId', '=', 'd.conversationId')
          .onRef('r.path', '=', 'd.path'),
      )
      .leftJoin('chatDocExtracts as e', 'e.blobId', 'r.blobId')
      .select([
        'd.id',
        'd.conversationId',
        'd.memberId',
        'd.path',
        'd.name',
        'd.ext',
        'd.createdAt',
        'r.blobId',
        'e.status',
        'e.progress',
        'e.pages',
        'e.passages',
        'e.error',
        'e.embeddingModel',
      ])
      .where('d.conversationId', '=', conversationId)
      .orderBy('d.id')
      .execute();
  }

  async insertDocuments(rows: readonly Insertable<ChatDocumentsTable>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('chatDocuments').values(rows).execute();
  }

  async deleteDocument(conversationId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('chatDocuments')
      .where('id', '=', id)
      .where('conversationId', '=', conversationId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Queues reading each blob that has no job yet (a blob is read once, whoever attaches it). */
  async ensureExtracts(blobs: readonly { blobId: number; ext: string }[], now: number) {
    for (const { blobId, ext } of blobs) {
      await this.db
        .insertInto('chatDocExtracts')
        .values({ blobId, ext, status: 'queued', createdAt: now, updatedAt: now })
        .onConflict((oc) => oc.column('blobId').doNothing())
        .execute();
    }
  }

  /** Queues reading these blobs again where it failed (a member attaching a file again retries). */
  async retryFailed(blobIds: readonly number[], now: number): Promise<void> {
    if (blobIds.length === 0) return;
    await this.db
      .updateTable('chatDocExtracts')
      .set({ status: 'queued', progress: 0, error: '', updatedAt: now })
      .where('blobId', 'in', blobIds)
      .where('status', '=', 'failed')
      .execute();
  }

  /**
   * Takes the oldest job nobody is running: queued, or running on an instance whose heartbeat is
   * older than `aliveSince` (it died). Answers undefined when there is none, or when another
   * instance took it first.
   */
  async claim(instanceId: string, aliveSince: number, now: number) {
    const free = () =>
      this.db
        .selectFrom('chatDocExtracts as x')
        .select('x.blobId')
        .where((eb) =>
          eb.or([
            eb('x.status', '=', 'queued'),
            eb.and([
              eb('x.status', '=', 'running'),
              eb.or([
                eb('x.instanceId', 'is', null),
                eb(
                  'x.instanceId',
                  'not in',
                  eb
                    .selectFrom('instances')
                    .select('instances.id')
                    .where('instances.heartbeatAt', '>=', aliveSince),
                ),
              ]),
            ]),
          ]),
        );
    const next = await free().orderBy('x.updatedAt').limit(1).executeTakeFirst();
    if (!next) return undefined;
    // Checked again as it is written: on PostgreSQL a competing claim that committed first
    // makes this one match nothing.
    return this.db
      .updateTable('chatDocExtracts')
      .set((eb) => ({
        status: 'running',
        instanceId,
        progress: 0,
        error: '',
        attempts: eb('attempts', '+', 1),
        updatedAt: now,
      }))
      .where('blobId', '=', next.blobId)
      .where('blobId', 'in', free())
      .returning(['blobId', 'ext', 'attempts'])
      .executeTakeFirst();
  }

  /**
   * Puts back in the queue the jobs this instance holds but no longer runs (all of them, or the
   * one of `blobId`): a reader that gave up without a verdict never leaves a job `running`.
   */
  async requeue(instanceId: string, now: number, blobId?: number): Promise<number> {
    let query = this.db
      .updateTable('chatDocExtracts')
      .set({ status: 'queued', instanceId: null, progress: 0, updatedAt: now })
      .where('status', '=', 'running')
      .where('instanceId', '=', instanceId);
    if (blobId !== undefined) query = query.where('blobId', '=', blobId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Records progress of a job this instance runs; false when it is no longer this instance's. */
  async progress(
    blobId: number,
    instanceId: string,
    fields: { progress: number; pages?: number },
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('chatDocExtracts')
      .set({ ...fields, updatedAt: now })
      .where('blobId', '=', blobId)
      .where('status', '=', 'running')
      .where('instanceId', '=', instanceId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends a job this instance runs; false when it was no longer this instance's. */
  async finish(
    blobId: number,
    instanceId: string,
    fields: {
      status: 'done' | 'failed';
      pages: number;
      passages: number;
      error: string;
      embeddingModel?: string;
    },
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('chatDocExtracts')
      .set({ ...fields, progress: 100, instanceId: null, updatedAt: now })
      .where('blobId', '=', blobId)
      .where('status', '=', 'running')
      .where('instanceId', '=', instanceId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Where the blob's bytes are stored, while it exists. */
  blob(blobId: number) {
    return this.db
      .selectFrom('fileBlobs')
      .select(['storageKey', 'size'])
      .where('id', '=', blobId)
      .executeTakeFirst();
  }

  async clearPassages(blobId: number): Promise<void> {
    await this.db.deleteFrom('chatDocPassages').where('blobId', '=', blobId).execute();
  }

  /** Stores passages with their index entries, in batches. */
  async insertPassages(blobId: number, rows: readonly NewPassage[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      const batch = rows.slice(i, i + INSERT_BATCH);
      if (this.postgres) {
        await sql`insert into chat_doc_passages (blob_id, seq, page, text, terms) values ${sql.join(
          batch.map(
            (row) =>
              sql`(${blobId}, ${row.seq}, ${row.page}, ${row.text}, to_tsvector('english', ${row.terms}))`,
          ),
        )}`.execute(this.db);
        continue;
      }
      const ids = await this.db
        .insertInto('chatDocPassages')
        .values(
          batch.map((row) => ({
            blobId,
            seq: row.seq,
            page: row.page,
            text: row.text,
            vector: null,
          })),
        )
        .returning('id')
        .execute();
      await sql`insert into chat_doc_passages_fts (rowid, tag, terms) values ${sql.join(
        batch.map((row, j) => sql`(${ids[j]?.id}, ${String(blobId)}, ${row.terms})`),
      )}`.execute(this.db);
    }
  }

  /** The blob's passages in order (for vectors). */
  passagesOf(blobId: number) {
    return this.db
      .selectFrom('chatDocPassages')
      .select(['id', 'text'])
      .where('blobId', '=', blobId)
      .orderBy('seq')
      .execute();
  }

  async setVector(id: number, vector: string): Promise<void> {
    await this.db.updateTable('chatDocPassages').set({ vector }).where('id', '=', id).execute();
  }

  /**
   * The passages of these blobs holding any of `terms`, best first: BM25 on SQLite (FTS5),
   * `ts_rank` on PostgreSQL (term frequency over the log of the length, like BM25's; the cover
   * density of `ts_rank_cd` costs six times as much when thousands of passages match). `terms`
   * hold letters and digits only (passages.ts).
   */
  async search(
    blobIds: readonly number[],
    terms: readonly string[],
    limit: number,
  ): Promise<FoundPassage[]> {
    if (blobIds.length === 0 || terms.length === 0) return [];
    if (this.postgres) {
      const query = terms.join(' | ');
      const found = await sql<FoundPassage>`select p.id, p.blob_id as "blobId", p.page, p.text,
          p.vector
        from chat_doc_passages p, to_tsquery('english', ${query}) q
        where p.blob_id in (${sql.join(blobIds)}) and p.terms @@ q
        order by ts_rank(p.terms, q, 1) desc, p.id
        limit ${limit}`.execute(this.db);
      return found.rows;
    }
    const match = `tag : (${blobIds.map((id) => `"${id}"`).join(' OR ')}) AND terms : (${terms
      .map((term) => `"${term}"`)
      .join(' OR ')})`;
    const found = await sql<FoundPassage>`select p.id, p.blob_id as "blobId", p.page, p.text,
        p.vector
      from chat_doc_passages_fts f join chat_doc_passages p on p.id = f.rowid
      where chat_doc_passages_fts match ${match}
      order by bm25(chat_doc_passages_fts, 0.0, 1.0), p.id
      limit ${limit}`.execute(this.db);
    return found.rows;
  }

  /**
   * Stores an answer's citations. An answer is cited once, at its end, and every answer is a row
   * of its own (a regeneration is another row), so there is nothing to replace: an answer that
   * cites nothing costs no statement (a thousand ending together cost a thousand deletes, each
   * a write of its own on the instance's connection).
   */
  async addCitations(
    messageId: number,
    rows: readonly Omit<Insertable<ChatCitationsTable>, 'messageId'>[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('chatCitations')
      .values(rows.map((row) => ({ ...row, messageId })))
      .execute();
  }

  citationsOf(messageIds: readonly number[]) {
    if (messageIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('chatCitations')
      .select(['messageId', 'n', 'name', 'path', 'page', 'text'])
      .where('messageId', 'in', messageIds)
      .orderBy('messageId')
      .orderBy('n')
      .execute();
  }
}
