/**
 * Shared short-lived state and messages between instances (DESIGN 1): rate-limit counters,
 * captcha and verification codes, and pub/sub for chat streams. In-process by default, Redis
 * when REDIS_URL is set. Values are strings; callers encode what they store.
 *
 * When Redis is out of reach (issue 26) every call fails within its timeout with
 * `UnavailableError('redis')` (answered as a retryable refusal), except `subscribe`, which
 * registers the handler and goes live when Redis is back; `pubsub()` tells subscribers when
 * messages may have been missed, so they can catch up from where the state is stored.
 */
export interface Bus {
  get(key: string): Promise<string | undefined>;
  /** Stores a value; without `ttlMs` it stays until deleted. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Adds one and returns the new count; the expiry starts with the first increment (fixed window). */
  incr(key: string, ttlMs: number): Promise<number>;
  /** Milliseconds left before the key expires; undefined when it is missing or never expires. */
  ttl(key: string): Promise<number | undefined>;
  /**
   * False only when a message published on `channel` now could reach nobody: publishers skip
   * making it. In-process, whether anything here subscribes; over Redis always true, as other
   * instances may.
   */
  mayHaveSubscribers(channel: string): boolean;
  /** Best effort: a message published while no subscriber is live is lost (see `pubsub`). */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Resolves once the subscription is live, or once it is registered while pub/sub is down (it
   * goes live on reconnect); the returned function ends it. Never fails for an outage.
   */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  /**
   * Whether messages reach this instance's subscriptions now (`live`), and how many times they
   * stopped doing so (`outages`): a subscriber that sees either change since its last look may
   * have missed messages.
   */
  pubsub(): PubSubState;
  /** Fails (UnavailableError) unless the store answers within its timeout: for readiness. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface PubSubState {
  live: boolean;
  outages: number;
}
