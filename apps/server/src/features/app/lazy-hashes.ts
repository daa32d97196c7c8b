/**
 * `hashLazyValue` (SPEC 4.2): each lazily loaded data set (e.g. "Rooms") registers a function
 * returning a short hash of its data; app/config answers all of them so clients refresh only
 * the sets that changed.
 */
export class LazyHashes {
  private readonly sources = new Map<string, () => Promise<string>>();

  register(key: string, source: () => Promise<string>): void {
    if (this.sources.has(key)) throw new Error(`Lazy data set ${key} is already registered`);
    this.sources.set(key, source);
  }

  async all(): Promise<Record<string, string>> {
    const entries = await Promise.all(
      [...this.sources].map(async ([key, source]) => [key, await source()] as const),
    );
    return Object.fromEntries(entries);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    lazyHashes: LazyHashes;
  }
}
