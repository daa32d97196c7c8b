/**
 * Shared short-lived state and messages between instances (DESIGN 1): rate-limit counters,
 * captcha and verification codes, and pub/sub for chat streams. In-process by default, Redis
 * when REDIS_URL is set. Values are strings; callers encode what they store.
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
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is live; the returned function ends it. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
