import type { LibraryScope } from './files.repository';

/**
 * Bounded, so many libraries, categories and searches cannot grow the process without limit. An
 * answer weighs what its caller says (a list page: one per record, plus one), so a page of 10
 * records (a few kilobytes) counts eleven times a category's row: at most some tens of megabytes.
 * Counted by entries, a walk through many small categories (three answers each: the page, the
 * category, its counts) pushed out the pages of the large ones, which cost most to read again.
 */
const DEFAULT_MAX_WEIGHT = 60_000;

interface Entry {
  generation: number;
  value: unknown;
  weight: number;
}

/** The key of one owner's library in the answers kept. */
export function libraryKey(scope: LibraryScope): string {
  return `${scope.owner.type}:${scope.owner.id}:${scope.library}`;
}

/**
 * Answers of the file library's hot reads kept in memory (issue 32): a list page, a category and
 * its subtree's counts, the category tree. Each is tagged with the library's generation
 * (`file_library_stats.generation`), which triggers bump in the same transaction as any write to
 * the library's files or categories, whichever instance or feature writes. The caller reads the
 * generation with the library's counts (one indexed row) and asks here: an answer kept under
 * another generation is computed afresh, so the next read on any instance after a write sees it.
 *
 * A value computed from a state newer than the generation read before it is stored under that
 * older generation: it is never answered once the generation moved on (generations only grow).
 * Without a generation (a library with no counts row yet) nothing is kept.
 *
 * Least recently used entries go first once `maxEntries` are held. Callers must not change what
 * they are given.
 */
export class LibraryAnswers {
  private readonly entries = new Map<string, Entry>();
  private weight = 0;
  private hits = 0;
  private misses = 0;

  constructor(private readonly maxWeight = DEFAULT_MAX_WEIGHT) {}

  get size(): number {
    return this.entries.size;
  }

  /** Hits and misses since start (for tests and benches). */
  get counts(): { hits: number; misses: number } {
    return { hits: this.hits, misses: this.misses };
  }

  /**
   * The answer kept for `key` in `library` at `generation`, or `compute`'s, kept for the next
   * caller at the same generation with the weight `weigh` gives it (at least 1).
   */
  async get<V>(
    library: string,
    generation: number | undefined,
    key: string,
    compute: () => Promise<V>,
    weigh: (value: V) => number = () => 1,
  ): Promise<V> {
    if (generation === undefined) return compute();
    const id = `${library}\u0000${key}`;
    const entry = this.entries.get(id);
    if (entry && entry.generation === generation) {
      this.hits += 1;
      // Most recently used last: the map's order is the eviction order.
      this.entries.delete(id);
      this.entries.set(id, entry);
      return entry.value as V;
    }
    this.misses += 1;
    const value = await compute();
    const now = this.entries.get(id);
    // A slower read of an older generation does not replace a newer one stored meanwhile.
    if (now && now.generation > generation) return value;
    this.forget(id);
    const weight = Math.max(1, weigh(value));
    if (weight > this.maxWeight) return value;
    while (this.weight + weight > this.maxWeight) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
    this.entries.set(id, { generation, value, weight });
    this.weight += weight;
    return value;
  }

  private forget(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.weight -= entry.weight;
  }

  /** Forgets everything (tests; a library's data replaced behind the triggers' back). */
  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }
}
