import { createHash, randomBytes } from 'node:crypto';
import {
  chatShareSettings,
  type ChatShareList,
  type ChatShareRecord,
  type ChatShareSettings,
  type ChatShareView,
  chatSharesMax,
} from '@atrium/shared/contract/chat-export';
import type { sharedMessage } from '@atrium/shared/contract/chat-export.answers';
import type { z } from 'zod';
import type { Db } from '../../../db/index';
import { lockRow } from '../../../db/row-lock';
import { SettingsRepository } from '../../../db/settings.repository';
import { ApiError, message, notLoggedIn } from '../../../http/envelope';
import type { MemberPrincipal } from '../../../http/principal';
import type { ImageAccess } from '../../library/index';
import type { Instances } from '../../../instances/instances';
import type { RoomsService } from '../../rooms/index';
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
  type ExportMessageRow,
  type ShareRow,
} from './archive.repository';
import { ArchiveImport, slicer } from './archive-import';
import { ArchiveJobs } from './archive-jobs';
import { branchPath } from '../conversations/index';
import { titleIn } from '../chat-texts';
import { parseImages } from '../chat.tables';

type SharedMessage = z.infer<typeof sharedMessage>;

/** Conversations read per page while an export of all of them is written. */
const EXPORT_PAGE = 50;
/** Messages of a conversation read per query while it is exported. */
const MESSAGE_PAGE = 100;
/** The setting key of the share links' admin setting. */
export const shareSettingsKey = 'chatShare';
const defaultShareSettings: ChatShareSettings = { publicLinks: false };

const Messages = {
  conversationNotFound: message('chat.conversationNotFound'),
  shareNotFound: message('chat.shareNotFound'),
  publicOff: { ...message('chat.publicLinksOff'), field: 'public' },
  tooManyShares: message('chat.tooManyShares', { max: chatSharesMax }),
} as const;

export interface ExportChunks {
  fileName: string;
  contentType: string;
  chunks: AsyncIterable<string>;
  /** Frees the member's export slot (also when the chunks were never read); idempotent. */
  end(): Promise<void>;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Export, import and share links of a member's conversations (issue 18, points 4 and 5). */
export class ArchiveService {
  private readonly db: ArchiveDb;
  private readonly repo: ArchiveRepository;
  private readonly settings: SettingsRepository;
  private readonly jobs: ArchiveJobs;
  private readonly importer: ArchiveImport;

  constructor(
    private readonly deps: {
      db: Db;
      rooms: RoomsService;
      images: ImageAccess;
      instances: Instances;
      now: () => number;
    },
  ) {
    this.db = archiveDb(deps.db);
    this.repo = new ArchiveRepository(this.db);
    this.settings = new SettingsRepository(deps.db);
    this.jobs = new ArchiveJobs(deps.db, deps.instances, deps.now);
    this.importer = new ArchiveImport({ ...deps, jobs: this.jobs });
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
      ? fileNameOf(titleIn(first.title, request.lang), 'conversation')
      : `atrium-${request.lang === 'en' ? 'conversations' : '对话'}-${day}`;
    const markdown = request.format === 'markdown';
    const repo = this.repo;
    // One export or import at a time per member; the slot is freed when the file ends.
    const job = await this.jobs.start(member.id, 'export');
    let ended: Promise<void> | undefined;
    const end = () => (ended ??= job.end());
    const slice = slicer();
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
    /** A conversation's messages, read a page at a time with turns of the event loop between. */
    async function messagesOf(conversationId: number): Promise<ExportMessageRow[]> {
      const rows: ExportMessageRow[] = [];
      for (;;) {
        const page = await repo.messagesPage(conversationId, rows.at(-1)?.id ?? 0, MESSAGE_PAGE);
        rows.push(...page);
        await slice();
        if (page.length < MESSAGE_PAGE) return rows;
      }
    }
    async function* chunks(): AsyncGenerator<string> {
      try {
        const options = { lang: request.lang, utcOffset: request.utcOffset, origin };
        if (markdown) {
          if (only === undefined) yield allMarkdownHead(request.lang, now, request.utcOffset);
          let any = false;
          for await (const conversation of pages()) {
            const messages = await messagesOf(conversation.id);
            const text = conversationMarkdown(conversation, messages, options, only ? 1 : 2);
            yield any ? `\n---\n\n${text}` : text;
            any = true;
            await slice();
          }
          if (!any) yield noConversationsMarkdown(request.lang);
          return;
        }
        yield jsonHead(now);
        let any = false;
        for await (const conversation of pages()) {
          const messages = await messagesOf(conversation.id);
          yield `${any ? ',\n' : ''}${JSON.stringify(conversationJson(conversation, messages, request.lang))}`;
          any = true;
          await slice();
        }
        yield jsonTail;
      } finally {
        await end();
      }
    }
    return {
      fileName: `${base}.${markdown ? 'md' : 'json'}`,
      contentType: markdown ? 'text/markdown; charset=utf-8' : 'application/json; charset=utf-8',
      chunks: chunks(),
      end,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Import

  /** Imports an export file into the member's account, all or nothing (archive-import.ts). */
  import(member: MemberPrincipal, text: string, roomId: number | undefined) {
    return this.importer.run(member, text, roomId);
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
        throw new ApiError(message('http.notLoggedIn'), notLoggedIn().code);
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
