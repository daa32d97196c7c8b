import { createHash, randomBytes } from 'node:crypto';
import {
  chatExportFile,
  chatExportFormat,
  chatExportVersion,
  chatShareSettings,
  type ChatExportFile,
  type ChatImportResponse,
  type ChatShareList,
  type ChatShareRecord,
  type ChatShareSettings,
  type ChatShareView,
  chatSharesMax,
} from '@atrium/shared/contract/chat-export';
import type { sharedMessage } from '@atrium/shared/contract/chat-export.answers';
import { dataPathsOf } from '@atrium/shared/file-refs';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { lockRow } from '../../db/row-lock';
import { SettingsRepository } from '../../db/settings.repository';
import { ApiError, notLoggedIn } from '../../http/envelope';
import type { MemberPrincipal } from '../../http/principal';
import { holdFiles, type ImageAccess } from '../files/index';
import type { RoomsService } from '../rooms/index';
import {
  allMarkdownHead,
  conversationJson,
  conversationMarkdown,
  fileNameOf,
  jsonHead,
  jsonTail,
  noConversationsMarkdown,
  type ExportLanguage,
} from './archive-format';
import {
  ArchiveRepository,
  archiveDb,
  type ArchiveDb,
  type ExportConversationRow,
  type ShareRow,
} from './archive.repository';
import { branchPath } from './branches';
import { ChatRepository } from './chat.repository';
import { chatDb } from './chat.tables';
import { parseImages } from './prompt';

type SharedMessage = z.infer<typeof sharedMessage>;

/** Conversations read per page while an export of all of them is written. */
const EXPORT_PAGE = 50;
/** The setting key of the share links' admin setting. */
export const shareSettingsKey = 'chatShare';
const defaultShareSettings: ChatShareSettings = { publicLinks: false };

const Messages = {
  conversationNotFound: 'Conversation not found',
  shareNotFound: 'This share link does not exist or was revoked',
  notJson: (why: string) => `file: is not a JSON file (${why})`,
  notExport: `file: not an Atrium chat export (its "format" must be "${chatExportFormat}")`,
  wrongVersion: (version: unknown) =>
    `file: export version ${JSON.stringify(version)} cannot be imported here: this Atrium reads version ${chatExportVersion}`,
  invalid: (where: string, why: string) => `file: ${where}: ${why}`,
  roomClosed: 'roomId: this room is closed or does not exist',
  roomsMissing: (rooms: string) =>
    `roomId: ${rooms} is closed or does not exist on this site: choose a room to import into`,
  publicOff: 'public: public links are turned off on this site',
  tooManyShares: `You have ${chatSharesMax} share links: revoke some first`,
  streamingAnswer: 'Exported while still being written',
} as const;

export interface ExportChunks {
  fileName: string;
  contentType: string;
  chunks: AsyncIterable<string>;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Export, import and share links of a member's conversations (issue 18, points 4 and 5). */
export class ArchiveService {
  private readonly db: ArchiveDb;
  private readonly repo: ArchiveRepository;
  private readonly settings: SettingsRepository;

  constructor(
    private readonly deps: {
      db: Db;
      rooms: RoomsService;
      images: ImageAccess;
      now: () => number;
    },
  ) {
    this.db = archiveDb(deps.db);
    this.repo = new ArchiveRepository(this.db);
    this.settings = new SettingsRepository(deps.db);
  }

  // -------------------------------------------------------------------------------------------
  // Export

  /**
   * The file of one conversation or of all the member's. A missing conversation is refused here,
   * before anything is written; the chunks then read the conversations a page at a time, so a
   * member with many holds one page in memory, not all of them.
   */
  async export(
    member: MemberPrincipal,
    request: {
      conversationId?: number | undefined;
      format: 'markdown' | 'json';
      lang: ExportLanguage;
      utcOffset: number;
    },
    origin: string,
  ): Promise<ExportChunks> {
    const now = this.deps.now();
    const only = request.conversationId;
    let first: ExportConversationRow | undefined;
    if (only !== undefined) {
      [first] = await this.repo.conversationsPage(member.id, 0, 1, only);
      if (!first) throw new ApiError(Messages.conversationNotFound);
    }
    const day = new Date(now).toISOString().slice(0, 10);
    const base = first
      ? fileNameOf(first.title, 'conversation')
      : `atrium-${request.lang === 'en' ? 'conversations' : '对话'}-${day}`;
    const markdown = request.format === 'markdown';
    const repo = this.repo;
    async function* pages(): AsyncGenerator<ExportConversationRow> {
      let after = 0;
      for (;;) {
        const page = await repo.conversationsPage(member.id, after, EXPORT_PAGE, only);
        for (const row of page) yield row;
        const last = page.at(-1);
        if (!last || page.length < EXPORT_PAGE) return;
        after = last.id;
      }
    }
    async function* chunks(): AsyncGenerator<string> {
      const options = { lang: request.lang, utcOffset: request.utcOffset, origin };
      if (markdown) {
        if (only === undefined) yield allMarkdownHead(request.lang, now, request.utcOffset);
        let any = false;
        for await (const conversation of pages()) {
          const messages = await repo.messagesOf(conversation.id);
          const text = conversationMarkdown(conversation, messages, options, only ? 1 : 2);
          yield any ? `\n---\n\n${text}` : text;
          any = true;
        }
        if (!any) yield noConversationsMarkdown(request.lang);
        return;
      }
      yield jsonHead(now);
      let any = false;
      for await (const conversation of pages()) {
        const messages = await repo.messagesOf(conversation.id);
        yield `${any ? ',\n' : ''}${JSON.stringify(conversationJson(conversation, messages))}`;
        any = true;
      }
      yield jsonTail;
    }
    return {
      fileName: `${base}.${markdown ? 'md' : 'json'}`,
      contentType: markdown ? 'text/markdown; charset=utf-8' : 'application/json; charset=utf-8',
      chunks: chunks(),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Import

  /** Reads and checks an export file: every refusal names what is wrong and where. */
  parseFile(text: string): ChatExportFile {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ApiError(Messages.notJson(error instanceof Error ? error.message : String(error)));
    }
    const head =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    if (head.format !== chatExportFormat) throw new ApiError(Messages.notExport);
    if (head.version !== chatExportVersion) throw new ApiError(Messages.wrongVersion(head.version));
    const parsed = chatExportFile.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.map(String).join('.') || 'file';
      throw new ApiError(Messages.invalid(where, issue?.message ?? 'is not valid'));
    }
    return parsed.data;
  }

  /**
   * Imports an export file into the member's account, all or nothing: every conversation with
   * every branch and its shown branch, into the room it came from (refused, naming the rooms,
   * when one is closed or gone) or into `roomId`. Images stay only when they are in the
   * member's own image library; the others are left out and named in the answer.
   */
  async import(
    member: MemberPrincipal,
    text: string,
    roomId: number | undefined,
  ): Promise<ChatImportResponse> {
    const file = this.parseFile(text);
    const roomOf = new Map<number, number>();
    if (roomId !== undefined) {
      if (!(await this.deps.rooms.findEnabled(roomId))) throw new ApiError(Messages.roomClosed);
      for (const c of file.conversations) roomOf.set(c.room.id, roomId);
    } else {
      const missing = new Map<number, string>();
      for (const c of file.conversations) {
        if (roomOf.has(c.room.id) || missing.has(c.room.id)) continue;
        if (await this.deps.rooms.findEnabled(c.room.id)) roomOf.set(c.room.id, c.room.id);
        else missing.set(c.room.id, c.room.title);
      }
      if (missing.size > 0) {
        const named = [...missing].map(([id, title]) => `room "${title || id}" (id ${id})`);
        throw new ApiError(Messages.roomsMissing(named.join(', ')));
      }
    }

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

    // The conversations and messages are written as chat writes them (ChatRepository).
    return chatDb(this.deps.db)
      .transaction()
      .execute(async (trx) => {
        const chat = new ChatRepository(trx);
        const created: ChatImportResponse['conversations'] = [];
        let count = 0;
        for (const c of file.conversations) {
          const room = roomOf.get(c.room.id) ?? c.room.id;
          const conversationId = await chat.insertConversation({
            roomId: room,
            memberId: member.id,
            title: c.title,
            createdAt: c.createdAt,
            updatedAt: c.updatedAt,
          });
          const idOf = new Map<number, number>();
          for (const m of c.messages) {
            const images = m.role === 'user' ? m.images.filter((p) => kept.has(p)) : [];
            const streaming = m.status === 'streaming';
            const id = await chat.insertMessage({
              conversationId,
              parentId: m.parentId === null ? null : (idOf.get(m.parentId) ?? null),
              role: m.role,
              content: m.content,
              images: JSON.stringify(images),
              // An answer exported mid-way is not being written here: it ends as interrupted.
              status: streaming ? 'interrupted' : m.status,
              error: streaming && !m.error ? Messages.streamingAnswer : m.error,
              modelId: null,
              promptTokens: m.promptTokens,
              completionTokens: m.completionTokens,
              tokensEstimated: m.tokensEstimated ? 1 : 0,
              createdAt: m.createdAt,
              updatedAt: m.updatedAt,
            });
            idOf.set(m.id, id);
            if (images.length > 0) {
              await holdFiles(
                trx,
                { kinds: ['chatImage'], holderId: id, memberId: member.id },
                dataPathsOf(images).map((path) => ({ kind: 'chatImage' as const, path })),
              );
            }
            count += 1;
          }
          if (c.leafId !== null)
            await chat.updateConversation(conversationId, { leafId: idOf.get(c.leafId) ?? null });
          created.push({ id: conversationId, roomId: room, title: c.title });
        }
        return { conversations: created, messages: count, droppedImages: [...dropped] };
      });
  }

  // -------------------------------------------------------------------------------------------
  // Share links

  async shareSettings(): Promise<ChatShareSettings> {
    const parsed = chatShareSettings.safeParse(await this.settings.get(shareSettingsKey));
    return parsed.success ? parsed.data : defaultShareSettings;
  }

  async saveShareSettings(value: ChatShareSettings): Promise<ChatShareSettings> {
    await this.settings.set(shareSettingsKey, value, this.deps.now());
    return this.shareSettings();
  }

  private toRecord(row: Omit<ShareRow, 'snapshot' | 'tokenHash'>): ChatShareRecord {
    return {
      id: row.id,
      token: row.token,
      conversationId: row.conversationId,
      title: row.title,
      roomTitle: row.roomTitle,
      messages: row.messageCount,
      public: row.public === 1,
      createdAt: row.createdAt,
    };
  }

  /**
   * A link to a snapshot of the conversation's shown branch as it is now: later messages, edits
   * and regenerated answers are not seen through it. An answer still being written is left out.
   */
  async createShare(
    member: MemberPrincipal,
    conversationId: number,
    isPublic: boolean,
  ): Promise<ChatShareRecord> {
    const [conversation] = await this.repo.conversationsPage(member.id, 0, 1, conversationId);
    if (!conversation) throw new ApiError(Messages.conversationNotFound);
    if (isPublic && !(await this.shareSettings()).publicLinks)
      throw new ApiError(Messages.publicOff);
    const messages = await this.repo.messagesOf(conversationId);
    const byId = new Map(messages.map((m) => [m.id, m]));
    const snapshot: SharedMessage[] = [];
    for (const id of branchPath(messages, conversation.leafId)) {
      const m = byId.get(id);
      if (!m || m.status === 'streaming') continue;
      snapshot.push({
        role: m.role,
        content: m.content,
        images: parseImages(m.images),
        status: m.status,
        createdAt: m.createdAt,
      });
    }
    const token = randomBytes(32).toString('base64url');
    const now = this.deps.now();
    const row = {
      tokenHash: hashToken(token),
      token,
      conversationId,
      memberId: member.id,
      public: isPublic ? 1 : 0,
      title: conversation.title,
      roomId: conversation.roomId,
      roomTitle: conversation.roomTitle ?? '',
      messageCount: snapshot.length,
      snapshot: JSON.stringify(snapshot),
      createdAt: now,
    };
    // Counted and added under the member's row lock: parallel requests cannot pass the limit.
    const id = await this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'members', member.id);
      const repo = new ArchiveRepository(trx);
      if ((await repo.countShares(member.id)) >= chatSharesMax)
        throw new ApiError(Messages.tooManyShares);
      return repo.insertShare(row);
    });
    return this.toRecord({ ...row, id });
  }

  async listShares(member: MemberPrincipal): Promise<ChatShareList> {
    const rows = await this.repo.listShares(member.id, chatSharesMax);
    return {
      records: rows.map((row) => this.toRecord(row)),
      publicLinks: (await this.shareSettings()).publicLinks,
    };
  }

  /** Someone else's link is "not found", as an unknown one is. */
  async revokeShare(member: MemberPrincipal, id: number): Promise<void> {
    if (!(await this.repo.deleteShare(id, member.id))) throw new ApiError(Messages.shareNotFound);
  }

  /**
   * The snapshot behind a link. Signed-in members of the site may open any live link; a visitor
   * only a public one while the site allows public links, and is otherwise asked to sign in.
   * An unknown or revoked link answers the same "not found" to everyone who may see links.
   */
  async viewShare(member: MemberPrincipal | null, token: string): Promise<ChatShareView> {
    const row = await this.repo.findShareByHash(hashToken(token));
    if (!member) {
      const publicLinks = (await this.shareSettings()).publicLinks;
      if (!publicLinks || (row && row.public !== 1)) {
        const refusal = notLoggedIn();
        throw new ApiError(refusal.msg, refusal.code);
      }
    }
    if (!row) throw new ApiError(Messages.shareNotFound);
    let messages: SharedMessage[];
    try {
      messages = JSON.parse(row.snapshot) as SharedMessage[];
    } catch {
      messages = [];
    }
    return {
      title: row.title,
      roomId: row.roomId,
      roomTitle: row.roomTitle,
      sharedAt: row.createdAt,
      messages,
    };
  }
}
