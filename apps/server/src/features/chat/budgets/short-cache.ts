/**
 * Settings every send reads (the room, its model and provider, the quotas) kept for a moment,
 * so the path to the first token skips those queries. Saves on this instance clear it at once;
 * another instance's saves are seen within `ttlMs`.
 */
export class ShortCache {
  private readonly entries = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(private readonly ttlMs: number) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { at: now, value });
    // A failed load (a database hiccup, an unreadable key) is not remembered.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
