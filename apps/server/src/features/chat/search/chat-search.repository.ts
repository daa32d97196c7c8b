import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import { chatSearchIndexes } from '../../../db/migrations/2026_11_30_2000_chat_search';
import type { ChatDb } from '../chat.tables';
import { indexQueuedMessages } from '../streaming/index';

/**
 * The index-backed search over a member's conversations (migration 2026_11_30_2000): message
 * content and conversation titles, SQLite through the FTS5 trigram tables, PostgreSQL through
 * the pg_trgm GIN indexes.
 */

/** A row's rowid in the FTS tables is id * span + member_id (see the migration). */
const span = 16777216;

/**
 * Index matches (of every member) one request walks at most, newest first, looking for the
 * member's: a bound on a request's work when the words are common among other members' messages
 * and rare in this member's. A page that stops there short of its size answers where it stopped
 * as its `next`, so "more" carries on from there.
 */
export const candidateCap = 10_000;

/**
 * Rows of the whole index one request walks at most, newest first, for a search of 1-2 character
 * words only (which the index cannot look up) by a member with a long history: rowids alone are
 * read (the member told by them), and only the member's rows are joined and tested.
 */
export const scanCap = 40_000;

/**
 * Up to this many conversations, a search of 1-2 character words tests all of the member's
 * messages (gathered through the member and conversation indexes); beyond it, the capped walk.
 */
export const smallHistory = 500;

/** The trigram tokenizer indexes runs of 3 characters: shorter words cannot be looked up. */
export const trigramMinLength = 3;

/** The words of a search, lower-cased: `long` looked up in the index, `short` checked on rows. */
export interface SearchTerms {
  long: string[];
  short: string[];
}

/** Splits what was typed into distinct words, each a case-insensitive substring. */
export function searchTerms(keywords: string): SearchTerms {
  const words = [...new Set(keywords.toLowerCase().split(/\s+/).filter(Boolean))];
  const long = words.filter((w) => [...w].length >= trigramMinLength);
  const short = words.filter((w) => [...w].length < trigramMinLength);
  return { long, short };
}

/** `terms` as an FTS5 query: each a quoted phrase (so no word is FTS syntax), all required. */
function ftsMatch(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ');
}

export interface MessageHitRow {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  createdAt: number;
  conversationId: number;
  roomId: number;
  title: string;
  conversationCreatedAt: number;
  conversationUpdatedAt: number;
  roomTitle: string;
}

export interface TitleHitRow {
  conversationId: number;
  roomId: number;
  title: string;
  conversationCreatedAt: number;
  conversationUpdatedAt: number;
  roomTitle: string;
}

export interface MessageSearch {
  memberId: number;
  terms: SearchTerms;
  roomId?: number | undefined;
  before?: number | undefined;
  limit: number;
  /** 1-2 character words only, SQLite: walk the index (a long history) or test every message. */
  walk?: boolean | undefined;
}

/** `lower(column)` holds every word, tested row by row (the words the index cannot look up). */
function holdsAll(column: string, words: readonly string[]): RawBuilder<unknown> {
  return sql.join(
    words.map((w) => sql`instr(lower(${sql.raw(column)}), ${w}) > 0`),
    sql` and `,
  );
}

/** `column` holds every word, any case, `%` and `_` literal: served by a pg_trgm index. */
function ilikeAll(column: string, words: readonly string[]): RawBuilder<unknown> {
  return sql.join(
    words.map((w) => sql`${sql.raw(column)} ilike ${`%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`),
    sql` and `,
  );
}

const messageColumns = sql.raw(`m.id, m.role, m.content, m.created_at,
  c.id as conversation_id, c.room_id, c.title,
  c.created_at as conversation_created_at, c.updated_at as conversation_updated_at,
  r.title as room_title`);

const titleColumns = sql.raw(`c.id as conversation_id, c.room_id, c.title,
  c.created_at as conversation_created_at, c.updated_at as conversation_updated_at,
  r.title as room_title`);

export class ChatSearchRepository {
  constructor(readonly db: ChatDb) {}

  private get postgres(): boolean {
    return this.db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * SQLite: indexes the messages still queued for the index (answers that ended a moment ago,
   * fts-queue-sql.mjs), so a search finds every message as it is stored. When the database
   * takes no writes (an outage, a full disk), the search still answers from the index as it is.
   */
  async catchUp(): Promise<void> {
    await indexQueuedMessages(this.db).catch(() => undefined);
  }

  /**
   * The query for one page of the member's messages holding the words, newest first.
   *
   * SQLite with a word of 3 or more characters: a backwards walk of the FTS index (below the
   * cursor, at most `candidateCap` matches), the member's matches told by their rowid and joined
   * to their message, conversation and room by primary key, stopping after the page. Only 1-2
   * character words (`walk`): the same walk over every row of the index (at most `scanCap`),
   * the member's rows tested; otherwise (a short history) the member's conversations (by the
   * member index) and their messages (by the conversation index), tested row by row.
   * PostgreSQL: `ilike` on content, which the GIN index serves, joined the same way.
   */
  messageQuery(search: MessageSearch): RawBuilder<MessageHitRow> {
    const { memberId, terms, roomId, before, limit } = search;
    const inRoom = roomId === undefined ? sql`` : sql`and c.room_id = ${roomId}`;
    const short = terms.short.length > 0 ? sql`and ${holdsAll('m.content', terms.short)}` : sql``;
    if (this.postgres) {
      const words = [...terms.long, ...terms.short];
      return sql<MessageHitRow>`select ${messageColumns}
        from chat_messages m
        join chat_conversations c on c.id = m.conversation_id
        join chat_rooms r on r.id = c.room_id
        where c.member_id = ${memberId} and m.status <> 'streaming'
          and ${ilikeAll('m.content', words)} ${inRoom}
          ${before === undefined ? sql`` : sql`and m.id < ${before}`}
        order by m.id desc limit ${limit}`;
    }
    if (terms.long.length === 0 && !search.walk) {
      return sql<MessageHitRow>`select ${messageColumns}
        from chat_conversations c
        cross join chat_messages m on m.conversation_id = c.id
        join chat_rooms r on r.id = c.room_id
        where c.member_id = ${memberId} ${inRoom} and m.status <> 'streaming'
          ${before === undefined ? sql`` : sql`and m.id < ${before}`} ${short}
        order by m.id desc limit ${limit}`;
    }
    return sql<MessageHitRow>`select ${messageColumns}
      from (${this.candidates('chat_message_fts', terms.long, before)}) f
      join chat_messages m on m.id = f.fr >> 24
      join chat_conversations c on c.id = m.conversation_id
      join chat_rooms r on r.id = c.room_id
      where (f.fr & ${span - 1}) = ${memberId} ${inRoom} ${short}
      order by f.fr desc limit ${limit}`;
  }

  /**
   * The newest `candidateCap` matches of every member in an FTS table (below `before`), newest
   * first, read lazily: the walk stops as soon as the page is full. No words: the newest
   * `scanCap` rows.
   */
  private candidates(
    table: string,
    words: readonly string[],
    before?: number,
  ): RawBuilder<unknown> {
    const fts = sql.raw(table);
    const below = before === undefined ? sql`` : sql`and rowid < ${before} * ${span}`;
    const match = words.length > 0 ? sql`${fts} match ${ftsMatch(words)}` : sql`1`;
    return sql`select rowid as fr from ${fts} where ${match} ${below}
      order by rowid desc limit ${words.length > 0 ? candidateCap : scanCap}`;
  }

  /**
   * When a page came back short (SQLite, through the index): the id of the last message the
   * capped walk examined, to carry on below; undefined when the walk saw every match.
   */
  async stoppedAt(search: MessageSearch): Promise<number | undefined> {
    const { terms, before } = search;
    if (this.postgres || (terms.long.length === 0 && !search.walk)) return undefined;
    const { rows } = await sql<{ n: number; last: number | null }>`select count(*) as n,
        min(fr) >> 24 as last
      from (${this.candidates('chat_message_fts', terms.long, before)})`.execute(this.db);
    const row = rows[0];
    const cap = terms.long.length > 0 ? candidateCap : scanCap;
    return row && Number(row.n) >= cap && row.last !== null ? Number(row.last) : undefined;
  }

  /**
   * One page of hits, and where a short page's walk stopped (see `candidateCap`): undefined
   * when it saw everything.
   */
  async messageHits(
    search: MessageSearch,
  ): Promise<{ rows: MessageHitRow[]; stoppedAt: number | undefined }> {
    let walk = false;
    if (!this.postgres && search.terms.long.length === 0) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from (
          select 1 from chat_conversations where member_id = ${search.memberId}
          limit ${smallHistory + 1})`.execute(this.db);
      walk = Number(rows[0]?.n) > smallHistory;
    }
    const full = { ...search, walk };
    const { rows } = await this.messageQuery(full).execute(this.db);
    return {
      rows,
      stoppedAt: rows.length < search.limit ? await this.stoppedAt(full) : undefined,
    };
  }

  /**
   * The query for the member's conversations whose title holds the words, most recently active
   * first: SQLite walks the title index's newest `candidateCap` matches, PostgreSQL uses
   * the title's GIN index; 1-2 character words alone test the member's titles one by one.
   */
  titleQuery(search: Omit<MessageSearch, 'before'>): RawBuilder<TitleHitRow> {
    const { memberId, terms, roomId, limit } = search;
    const inRoom = roomId === undefined ? sql`` : sql`and c.room_id = ${roomId}`;
    const short = terms.short.length > 0 ? sql`and ${holdsAll('c.title', terms.short)}` : sql``;
    if (this.postgres) {
      return sql<TitleHitRow>`select ${titleColumns}
        from chat_conversations c join chat_rooms r on r.id = c.room_id
        where c.member_id = ${memberId}
          and ${ilikeAll('c.title', [...terms.long, ...terms.short])} ${inRoom}
        order by c.updated_at desc, c.id desc limit ${limit}`;
    }
    if (terms.long.length === 0) {
      return sql<TitleHitRow>`select ${titleColumns}
        from chat_conversations c join chat_rooms r on r.id = c.room_id
        where c.member_id = ${memberId} ${inRoom} ${short}
        order by c.updated_at desc, c.id desc limit ${limit}`;
    }
    return sql<TitleHitRow>`select ${titleColumns}
      from (${this.candidates('chat_title_fts', terms.long)}) t
      join chat_conversations c on c.id = t.fr >> 24
      join chat_rooms r on r.id = c.room_id
      where (t.fr & ${span - 1}) = ${memberId} ${inRoom} ${short}
      order by c.updated_at desc, c.id desc limit ${limit}`;
  }

  async titleHits(search: Omit<MessageSearch, 'before'>): Promise<TitleHitRow[]> {
    return (await this.titleQuery(search).execute(this.db)).rows;
  }

  /** PostgreSQL: whether the pg_trgm indexes exist (SQLite always has its FTS tables). */
  async indexed(): Promise<boolean> {
    if (!this.postgres) return true;
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_indexes
      where schemaname = current_schema()
        and indexname in (${chatSearchIndexes.content}, ${chatSearchIndexes.title})`.execute(
      this.db,
    );
    return Number(rows[0]?.n) === 2;
  }
}
