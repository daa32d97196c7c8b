import {
  type CitationRecord,
  type DocumentRecord,
  documentExtensions,
  maxDocumentsPerConversation,
} from '@atrium/shared/contract/chat-docs';
import { parseDataPath } from '@atrium/shared/data-paths';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, message } from '../../http/envelope';
import type { MemberPrincipal } from '../../http/principal';
import { holdFiles } from '../library/index';
import { ChatDocsRepository, type ListedDocument } from './chat-docs.repository';
import type { DocsDb } from './chat-docs.tables';
import type { Embedder } from './embeddings';
import type { Extraction } from './extraction';
import { citedNumbers, retrievePassages, type Retrieved } from './retrieval';
import { lockRow } from '../../db/row-lock';

const Messages = {
  conversationNotFound: message('chat.conversationNotFound'),
  roomClosed: message('chat.roomClosed'),
  documentNotFound: message('docs.notFound'),
  notOwned: (path: string) => ({ ...message('docs.notOwned', { path }), field: 'paths' }),
  unsupported: (name: string) => ({
    ...message('docs.unsupported', {
      name,
      types: documentExtensions.map((ext) => ext.toUpperCase()).join(', '),
    }),
    field: 'paths',
  }),
  tooMany: message('docs.tooMany', { max: maxDocumentsPerConversation }),
} as const;

const supported = new Set<string>(documentExtensions);

function toRecord(row: ListedDocument): DocumentRecord {
  return {
    id: row.id,
    conversationId: row.conversationId,
    path: row.path,
    name: row.name,
    ext: row.ext,
    // A document whose blob has no job yet (just attached, or replaced in place) waits for one.
    status: row.status ?? 'queued',
    progress: row.status === 'done' ? 100 : (row.progress ?? 0),
    pages: row.pages ?? 0,
    passages: row.passages ?? 0,
    error: row.error ?? '',
    createdAt: row.createdAt,
  };
}

/**
 * A member's documents in a conversation (issue 18), and what answers are given from them. Each
 * document is a `chatDocument` reference of the conversation in the usage graph, which keeps the
 * file's blob: the library names the conversation among the file's uses, deleting the
 * conversation lets it go, and an answer keeps its documents even after the file is deleted.
 */
export class ChatDocsService {
  readonly repo: ChatDocsRepository;

  constructor(
    private readonly deps: {
      db: DocsDb;
      extraction: Extraction;
      embedder: () => Promise<Embedder | undefined>;
      log: FastifyBaseLogger;
      now: () => number;
      /** Whether members may chat in the room (a draft's conversation is created in it). */
      roomOpen?: (roomId: number) => Promise<boolean>;
    },
  ) {
    this.repo = new ChatDocsRepository(deps.db);
  }

  private async conversation(member: MemberPrincipal, id: number) {
    const row = await this.repo.conversation(id, member.id);
    if (!row) throw new ApiError(Messages.conversationNotFound);
    return row;
  }

  /** Queues reading the blobs that have none yet and starts reading; never waits for it. */
  private async queueMissing(rows: readonly ListedDocument[]): Promise<boolean> {
    const missing = rows.flatMap((row) =>
      row.blobId !== null && row.status === null ? [{ blobId: row.blobId, ext: row.ext }] : [],
    );
    if (missing.length === 0) return false;
    await this.repo.ensureExtracts(missing, this.deps.now());
    this.kick();
    return true;
  }

  /** Starts reading what is queued, in the background. */
  private kick(): void {
    this.deps.extraction.kick().catch((error: unknown) => {
      this.deps.log.warn({ err: error }, 'starting to read documents failed');
    });
  }

  async list(member: MemberPrincipal, conversationId: number): Promise<DocumentRecord[]> {
    await this.conversation(member, conversationId);
    let rows = await this.repo.listDocuments(conversationId);
    if (await this.queueMissing(rows)) rows = await this.repo.listDocuments(conversationId);
    return rows.map(toRecord);
  }

  /**
   * Attaches library files to the conversation; to a new one in `roomId` when `conversationId`
   * is 0, created in the transaction that attaches them, so a refused attach leaves no empty
   * conversation behind.
   */
  async attach(
    member: MemberPrincipal,
    requested: number,
    paths: readonly string[],
    roomId = 0,
  ): Promise<DocumentRecord[]> {
    if (requested > 0) await this.conversation(member, requested);
    else if (roomId === 0) throw new ApiError(Messages.conversationNotFound);
    else if (!(await this.deps.roomOpen?.(roomId))) throw new ApiError(Messages.roomClosed);
    const wanted = [...new Set(paths)];
    const now = this.deps.now();
    const conversationId = await this.deps.db.transaction().execute(async (trx) => {
      const repo = new ChatDocsRepository(trx);
      const conversationId =
        requested > 0
          ? requested
          : await repo.insertConversation({ roomId, memberId: member.id, createdAt: now });
      // Counted and added under the conversation's row lock: parallel attaches cannot pass the
      // limit.
      await lockRow(trx, 'chat_conversations', conversationId);
      const current = await repo.listDocuments(conversationId);
      const have = new Set(current.map((row) => row.path));
      const added: { path: string; name: string; ext: string }[] = [];
      const blobs: number[] = [];
      for (const path of wanted) {
        if (have.has(path)) continue;
        const file = await repo.ownFile(member.id, path);
        if (!file) throw new ApiError(Messages.notOwned(path));
        const ext = (parseDataPath(path)?.ext ?? file.ext).toLowerCase();
        const name = file.name;
        if (!supported.has(ext)) throw new ApiError(Messages.unsupported(name));
        added.push({ path, name, ext });
        blobs.push(file.blobId);
      }
      if (added.length === 0) return conversationId;
      if (current.length + added.length > maxDocumentsPerConversation)
        throw new ApiError(Messages.tooMany);
      await repo.insertDocuments(
        added.map((doc) => ({ ...doc, conversationId, memberId: member.id, createdAt: now })),
      );
      await holdFiles(
        trx,
        { kinds: ['chatDocument'], holderId: conversationId, memberId: member.id },
        [...current, ...added].map(({ path }) => ({ kind: 'chatDocument' as const, path })),
      );
      await repo.retryFailed(blobs, now);
      return conversationId;
    });
    this.kick();
    return this.list(member, conversationId);
  }

  async detach(
    member: MemberPrincipal,
    conversationId: number,
    id: number,
  ): Promise<DocumentRecord[]> {
    await this.conversation(member, conversationId);
    await this.deps.db.transaction().execute(async (trx) => {
      const repo = new ChatDocsRepository(trx);
      if (!(await repo.deleteDocument(conversationId, id)))
        throw new ApiError(Messages.documentNotFound);
      const rest = await repo.listDocuments(conversationId);
      await holdFiles(
        trx,
        { kinds: ['chatDocument'], holderId: conversationId, memberId: member.id },
        rest.map(({ path }) => ({ kind: 'chatDocument' as const, path })),
      );
    });
    return this.list(member, conversationId);
  }

  /** Whether the conversation holds documents (its answers may be given up to the cap more). */
  async hasDocuments(conversationId: number): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom('chatDocuments')
      .select('id')
      .where('conversationId', '=', conversationId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The passages an answer in this conversation is given for `question`, from the documents
   * read so far (one still being read is left out: the answer never waits), or undefined when
   * the conversation holds no documents.
   */
  async retrieve(conversationId: number, question: string): Promise<Retrieved | undefined> {
    const rows = await this.repo.listDocuments(conversationId);
    if (rows.length === 0) return undefined;
    await this.queueMissing(rows);
    const ready = new Map<number, { name: string; path: string; embeddingModel: string }>();
    for (const row of rows) {
      if (row.status !== 'done' || row.blobId === null || ready.has(row.blobId)) continue;
      ready.set(row.blobId, {
        name: row.name,
        path: row.path,
        embeddingModel: row.embeddingModel ?? '',
      });
    }
    return retrievePassages({ repo: this.repo, embedder: this.deps.embedder }, ready, question);
  }

  /** Stores the passages `answer` cites among those it was given (once, at its end). */
  async cite(messageId: number, given: Retrieved | undefined, answer: string): Promise<void> {
    const passages = given?.passages ?? [];
    if (passages.length === 0) return;
    const cited = new Set(citedNumbers(answer, passages.length));
    await this.repo.addCitations(
      messageId,
      passages.filter((passage) => cited.has(passage.n)),
    );
  }

  /** The citations of these messages, by message. */
  async citationsOf(messageIds: readonly number[]): Promise<Map<number, CitationRecord[]>> {
    const byMessage = new Map<number, CitationRecord[]>();
    for (const { messageId, ...citation } of await this.repo.citationsOf(messageIds)) {
      const list = byMessage.get(messageId) ?? [];
      list.push(citation);
      byMessage.set(messageId, list);
    }
    return byMessage;
  }
}
