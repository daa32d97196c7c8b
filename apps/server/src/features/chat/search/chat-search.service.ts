import type {
  ChatSearchResponse,
  chatSearchRequest,
  MatchRange,
} from '@atrium/shared/contract/chat-search';
import type { z } from 'zod';
import type { MemberPrincipal } from '../../../http/principal';
import { branchPath } from '../conversations/index';
import {
  ChatSearchRepository,
  searchTerms,
  type MessageHitRow,
  type TitleHitRow,
} from './chat-search.repository';
import { ChatRepository } from '../conversations/index';
import type { ChatService } from '../conversations/index';
import type { ChatDb } from '../chat.tables';

/** Conversations whose title holds the words, shown above the messages on the first page. */
const TITLE_HITS = 10;
/** Characters of context on each side of the first match in an excerpt. */
const EXCERPT_CONTEXT = 40;

/** Markdown read as prose, on one line: fences, `code`, **bold** and # headings left out. */
function flatten(text: string): string {
  return text
    .replace(/^\s{0,3}(?:#{1,6}\s+|```\S*)/gm, '')
    .replace(/`+|\*+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every place in `text` one of `words` occurs (any case), sorted, neighbouring ones merged. */
export function matchRanges(text: string, words: readonly string[]): MatchRange[] {
  const found: MatchRange[] = [];
  for (const word of words) {
    if (word === '') continue;
    for (const m of text.matchAll(new RegExp(escapeRegExp(word), 'giu')))
      found.push([m.index, m.index + m[0].length]);
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: MatchRange[] = [];
  for (const range of found) {
    const last = merged.at(-1);
    // Overlapping, touching or only spaces apart ("brand new"): one mark.
    if (last && (range[0] <= last[1] || /^\s+$/.test(text.slice(last[1], range[0]))))
      last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/**
 * The text around the first match, on one line, "…" where it was cut, and where the words are in
 * it. Cuts never split a surrogate pair.
 */
export function excerptWithRanges(
  text: string,
  words: readonly string[],
): { excerpt: string; ranges: MatchRange[] } {
  const flat = flatten(text);
  const all = matchRanges(flat, words);
  const first = all[0];
  const isLow = (at: number) => /[\udc00-\udfff]/.test(flat[at] ?? '');
  let start = first ? Math.max(0, first[0] - EXCERPT_CONTEXT) : 0;
  let end = first
    ? Math.min(flat.length, first[1] + EXCERPT_CONTEXT)
    : Math.min(flat.length, 2 * EXCERPT_CONTEXT);
  if (start > 0 && isLow(start)) start -= 1;
  if (end < flat.length && isLow(end)) end += 1;
  const lead = start > 0 ? '…' : '';
  const excerpt = `${lead}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
  const ranges = all
    .filter(([from, to]) => from >= start && to <= end)
    .map(([from, to]): MatchRange => [from - start + lead.length, to - start + lead.length]);
  return { excerpt, ranges };
}

const conversationOf = (row: MessageHitRow | TitleHitRow) => ({
  id: row.conversationId,
  roomId: row.roomId,
  title: row.title,
  createdAt: row.conversationCreatedAt,
  updatedAt: row.conversationUpdatedAt,
});

/** Search over all of a member's conversations (issue 18), and opening what it found. */
export class ChatSearchService {
  private readonly repo: ChatSearchRepository;
  private readonly chatRepo: ChatRepository;

  constructor(
    db: ChatDb,
    private readonly chat: ChatService,
  ) {
    this.repo = new ChatSearchRepository(db);
    this.chatRepo = new ChatRepository(db);
  }

  indexed(): Promise<boolean> {
    return this.repo.indexed();
  }

  async search(
    member: MemberPrincipal,
    request: z.output<typeof chatSearchRequest>,
  ): Promise<ChatSearchResponse> {
    const terms = searchTerms(request.keywords);
    const words = [...terms.long, ...terms.short];
    const scope = { memberId: member.id, terms, roomId: request.roomId };
    const [{ rows, stoppedAt }, titles] = await Promise.all([
      this.repo.messageHits({ ...scope, before: request.before, limit: request.limit }),
      request.before === undefined
        ? this.repo.titleHits({ ...scope, limit: TITLE_HITS })
        : Promise.resolve([]),
    ]);
    return {
      titles: titles.map((row) => ({
        conversation: conversationOf(row),
        roomTitle: row.roomTitle,
        ranges: matchRanges(row.title, words),
      })),
      records: rows.map((row) => ({
        conversation: conversationOf(row),
        roomTitle: row.roomTitle,
        messageId: row.id,
        role: row.role,
        createdAt: row.createdAt,
        ...excerptWithRanges(row.content, words),
      })),
      next: rows.length === request.limit ? (rows.at(-1)?.id ?? null) : (stoppedAt ?? null),
    };
  }

  /**
   * Where a found message is; when the conversation shows another branch, it is switched to the
   * branch holding the message (at that branch's newest message), as choosing that version would.
   */
  async reveal(member: MemberPrincipal, messageId: number) {
    const message = await this.chat.ownedMessage(member, messageId);
    const conversation = await this.chatRepo.findConversation(message.conversationId, member.id);
    const nodes = await this.chatRepo.branchNodes(message.conversationId);
    const shown = branchPath(nodes, conversation?.leafId ?? null).includes(messageId);
    if (!shown) await this.chat.showBranch(member, messageId);
    return {
      conversationId: message.conversationId,
      roomId: message.roomId,
      switchedBranch: !shown,
    };
  }
}
