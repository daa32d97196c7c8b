import type { Bus } from './types';

/** How long a write waits to hear its own news back from the bus (then it goes on regardless). */
const ECHO_WAIT_MS = 2_000;

/** What a memory cache is told: a change it names, or `null` when news may have been missed. */
export type NewsHandler = (news: string | null) => void;

/**
 * The news channel of a memory cache shared by instances (issue 32): a write tells it what
 * changed here and, over the bus, on every other instance. A cache asks `trusted()` before each
 * read: false until it listens and while pub/sub is down, and after an outage it is told `null`
 * (forget everything: messages may have been lost) before it is trusted again.
 *
 * `mark()` before a database read and `unchangedSince(mark)` before storing what was read: a
 * read that raced with news is not stored.
 */
export class BusNews {
  private generation = 0;
  private outagesSeen: number;
  private unsubscribe: (() => Promise<void>) | undefined;
  /** Writes waiting to hear their news back, by nonce. */
  private readonly echoes = new Map<string, () => void>();
  private nonces = 0;
  private readonly instanceNonce = Math.random().toString(36).slice(2);

  constructor(
    private readonly bus: Bus,
    private readonly channel: string,
    private readonly onNews: NewsHandler,
    private readonly onPublishFailed: (error: unknown) => void,
  ) {
    this.outagesSeen = bus.pubsub().outages;
  }

  /** Listens for other instances' news; until then the cache is not trusted. */
  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe(this.channel, (message) => this.receive(message));
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    this.tell(null);
    // The bus may be closed already (its onClose hook can run first): nothing left to undo then.
    await unsubscribe?.().catch(() => undefined);
  }

  /** Whether memory may be trusted now: listening, pub/sub live and no outage since last look. */
  trusted(): boolean {
    if (!this.unsubscribe) return false;
    const state = this.bus.pubsub();
    if (state.live && state.outages === this.outagesSeen) return true;
    this.tell(null);
    if (!state.live) return false;
    this.outagesSeen = state.outages;
    return true;
  }

  mark(): number {
    return this.generation;
  }

  unchangedSince(mark: number): boolean {
    return mark === this.generation && this.trusted();
  }

  /**
   * Tells this instance first, then the others, and waits until its own subscription hears the
   * news back: Redis hands a message to every subscriber in one go, so by then the other
   * instances have it too, and a caller told "done" who turns to another instance is answered
   * from the new state there. A failed publish (Redis going down) is logged: the others' pub/sub
   * is then down too, and they bypass their caches until it is back.
   */
  async announce(news: string): Promise<void> {
    this.tell(news);
    const nonce = `${this.instanceNonce}.${++this.nonces}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve) => {
      this.echoes.set(nonce, resolve);
      timer = setTimeout(resolve, ECHO_WAIT_MS);
    });
    try {
      await this.bus.publish(this.channel, `${news}|${nonce}`);
      if (this.unsubscribe) await heard;
    } catch (error) {
      this.onPublishFailed(error);
    } finally {
      clearTimeout(timer);
      this.echoes.delete(nonce);
    }
  }

  private receive(message: string): void {
    const bar = message.lastIndexOf('|');
    if (bar < 0) return this.tell(null);
    this.echoes.get(message.slice(bar + 1))?.();
    this.tell(message.slice(0, bar));
  }

  private tell(news: string | null): void {
    this.generation++;
    this.onNews(news);
  }
}

/**
 * Values computed once and kept in memory until news names their key, here or on another
 * instance (or may have been missed: then all are forgotten); while pub/sub is down every `get`
 * computes afresh. A value computed while news arrived is answered but not kept.
 */
export class KeptValues<V> {
  private readonly kept = new Map<string, V>();
  private readonly news: BusNews;

  constructor(bus: Bus, channel: string, onPublishFailed: (error: unknown) => void) {
    this.news = new BusNews(
      bus,
      channel,
      (key) => (key === null ? this.kept.clear() : this.kept.delete(key)),
      onPublishFailed,
    );
  }

  start(): Promise<void> {
    return this.news.start();
  }

  stop(): Promise<void> {
    return this.news.stop();
  }

  async get(key: string, compute: () => Promise<V>): Promise<V> {
    if (this.news.trusted() && this.kept.has(key)) return this.kept.get(key) as V;
    const mark = this.news.mark();
    const value = await compute();
    if (this.news.unchangedSince(mark)) this.kept.set(key, value);
    return value;
  }

  /** Called by the writer of what `key` names once its change is stored. */
  changed(key: string): Promise<void> {
    return this.news.announce(key);
  }
}
