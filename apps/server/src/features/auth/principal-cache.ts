import type { Bus } from '../../bus/index';
import { BusNews } from '../../bus/news';
import type { SubjectType } from '../../db/types';
import type { AdminPrincipal, MemberPrincipal, PrincipalChanges } from '../../http/principal';

/** The bus channel on which instances tell one another that signed-in callers changed. */
export const PRINCIPALS_CHANNEL = 'auth:principals';

/** The longest an entry is trusted without a look at the database: a backstop, not the rule. */
export const PRINCIPAL_TTL_MS = 60_000;

/** Bounded, so a flood of distinct tokens cannot grow the process without limit. */
const DEFAULT_MAX_ENTRIES = 20_000;

type Principal = AdminPrincipal | MemberPrincipal;

interface Entry {
  area: SubjectType;
  principal: Principal;
  /** The entry is not used from this time on (the session's next touch, rotation or expiry). */
  until: number;
}

/**
 * Signed-in callers resolved from memory (issue 32): the principal behind a token, kept until the
 * session's next write is due (touch, rotation, expiry) and never longer than PRINCIPAL_TTL_MS.
 *
 * Writes drop entries here at once and on every other instance over the bus (BusNews). When the
 * bus's pub/sub is down, or was down since the last look (messages may have been missed), the
 * cache is emptied and bypassed: every request reads the database, so a revoked session is never
 * served. A fill that raced with a drop (the read began before the drop arrived) is not stored.
 *
 * Tokens are keys of this in-process map only, as they are in the requests themselves; they are
 * never written anywhere.
 */
export class PrincipalCache implements PrincipalChanges {
  private readonly entries = new Map<string, Entry>();
  private readonly news: BusNews;

  constructor(
    bus: Bus,
    private readonly now: () => number,
    onPublishFailed: (error: unknown) => void,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {
    this.news = new BusNews(bus, PRINCIPALS_CHANNEL, (news) => this.apply(news), onPublishFailed);
  }

  /** Listens for other instances' changes; until then nothing is served from memory. */
  start(): Promise<void> {
    return this.news.start();
  }

  stop(): Promise<void> {
    return this.news.stop();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached principal behind a token, when one is held and still fresh. */
  get<P extends Principal>(area: SubjectType, token: string): P | undefined {
    if (!this.news.trusted()) return undefined;
    const key = `${area}:${token}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.principal as P;
  }

  /** Taken before a database read; `set` stores its result only if nothing was dropped since. */
  mark(): number {
    return this.news.mark();
  }

  set(area: SubjectType, token: string, principal: Principal, until: number, mark: number): void {
    if (!this.news.unchangedSince(mark)) return;
    const limit = Math.min(until, this.now() + PRINCIPAL_TTL_MS);
    if (limit <= this.now()) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(`${area}:${token}`, {
      area,
      principal: Object.freeze(principal),
      until: limit,
    });
  }

  session(sessionId: number): Promise<void> {
    return this.news.announce(`s:${sessionId}`);
  }

  subject(area: SubjectType, subjectId: number): Promise<void> {
    return this.news.announce(`u:${area}:${subjectId}`);
  }

  area(area: SubjectType): Promise<void> {
    return this.news.announce(`a:${area}`);
  }

  private apply(news: string | null): void {
    const [kind, first, second] = news === null ? [] : news.split(':');
    if (kind === 's') {
      const id = Number(first);
      this.drop((entry) => entry.principal.sessionId === id);
    } else if (kind === 'u') {
      const id = Number(second);
      this.drop((entry) => entry.area === first && entry.principal.id === id);
    } else if (kind === 'a') {
      this.drop((entry) => entry.area === first);
    } else {
      // Missed news, or news from a newer instance this one cannot read: forget everything.
      this.entries.clear();
    }
  }

  private drop(matches: (entry: Entry) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry)) this.entries.delete(key);
  }
}
