import type { Bus } from '../../bus/index';
import type { SubjectType } from '../../db/types';
import type { AdminPrincipal, MemberPrincipal, PrincipalChanges } from '../../http/principal';

/** The bus channel on which instances tell one another that signed-in callers changed. */
export const PRINCIPALS_CHANNEL = 'auth:principals';

/** The longest an entry is trusted without a look at the database: a backstop, not the rule. */
export const PRINCIPAL_TTL_MS = 60_000;

/** Bounded, so a flood of distinct tokens cannot grow the process without limit. */
const DEFAULT_MAX_ENTRIES = 20_000;

/** How long a write waits to hear its own news back from the bus (then it goes on regardless). */
const ECHO_WAIT_MS = 2_000;

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
 * Writes drop entries here at once and on every other instance over the bus. When the bus's
 * pub/sub is down, or was down since the last look (messages may have been missed), the cache is
 * emptied and bypassed: every request reads the database, so a revoked session is never served.
 * A fill that raced with a drop (the read began before the drop arrived) is not stored.
 *
 * Tokens are keys of this in-process map only, as they are in the requests themselves; they are
 * never written anywhere.
 */
export class PrincipalCache implements PrincipalChanges {
  private readonly entries = new Map<string, Entry>();
  /** Moves on every drop, so a read that began before it does not store what it read. */
  private generation = 0;
  private outagesSeen: number;
  private unsubscribe: (() => Promise<void>) | undefined;
  /** Writes waiting to hear their news back, by nonce. */
  private readonly echoes = new Map<string, () => void>();
  private nonces = 0;
  private readonly instanceNonce = Math.random().toString(36).slice(2);

  constructor(
    private readonly bus: Bus,
    private readonly now: () => number,
    private readonly onPublishFailed: (error: unknown) => void,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {
    this.outagesSeen = bus.pubsub().outages;
  }

  /** Listens for other instances' changes; until then nothing is served from memory. */
  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe(PRINCIPALS_CHANNEL, (message) =>
      this.apply(message),
    );
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    this.drop(() => true);
    // The bus may be closed already (its onClose hook can run first): nothing left to undo then.
    await unsubscribe?.().catch(() => undefined);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether memory may be trusted now: listening, pub/sub live and no outage since last look. */
  private trusted(): boolean {
    if (!this.unsubscribe) return false;
    const state = this.bus.pubsub();
    if (state.live && state.outages === this.outagesSeen) return true;
    this.drop(() => true);
    if (state.live) {
      this.outagesSeen = state.outages;
      return true;
    }
    return false;
  }

  /** The cached principal behind a token, when one is held and still fresh. */
  get<P extends Principal>(area: SubjectType, token: string): P | undefined {
    if (!this.trusted()) return undefined;
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
    return this.generation;
  }

  set(area: SubjectType, token: string, principal: Principal, until: number, mark: number): void {
    if (mark !== this.generation || !this.trusted()) return;
    const limit = Math.min(until, this.now() + PRINCIPAL_TTL_MS);
    if (limit <= this.now()) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(`${area}:${token}`, { area, principal, until: limit });
  }

  session(sessionId: number): Promise<void> {
    return this.announce(`s:${sessionId}`);
  }

  subject(area: SubjectType, subjectId: number): Promise<void> {
    return this.announce(`u:${area}:${subjectId}`);
  }

  area(area: SubjectType): Promise<void> {
    return this.announce(`a:${area}`);
  }

  /**
   * Drops here first, then tells the others and waits until its own subscription hears the news
   * back: Redis hands a message to every subscriber in one go, so by then the other instances
   * have it too, and a caller told "done" who turns to another instance is refused there. A failed
   * publish (Redis going down) is logged: the others' pub/sub is then down too, and they bypass
   * their caches until it is back.
   */
  private async announce(change: string): Promise<void> {
    this.apply(change);
    const nonce = `${this.instanceNonce}.${++this.nonces}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve) => {
      this.echoes.set(nonce, resolve);
      timer = setTimeout(resolve, ECHO_WAIT_MS);
    });
    try {
      await this.bus.publish(PRINCIPALS_CHANNEL, `${change}|${nonce}`);
      if (this.unsubscribe) await heard;
    } catch (error) {
      this.onPublishFailed(error);
    } finally {
      clearTimeout(timer);
      this.echoes.delete(nonce);
    }
  }

  private apply(message: string): void {
    const [change = '', nonce] = message.split('|');
    if (nonce !== undefined) this.echoes.get(nonce)?.();
    const [kind, first, second] = change.split(':');
    if (kind === 's') {
      const id = Number(first);
      this.drop((entry) => entry.principal.sessionId === id);
    } else if (kind === 'u') {
      const id = Number(second);
      this.drop((entry) => entry.area === first && entry.principal.id === id);
    } else if (kind === 'a') {
      this.drop((entry) => entry.area === first);
    } else {
      // Unknown news from a newer instance: forget everything rather than guess.
      this.drop(() => true);
    }
  }

  private drop(matches: (entry: Entry) => boolean): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (matches(entry)) this.entries.delete(key);
  }
}
