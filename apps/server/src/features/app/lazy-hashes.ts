import type { Bus } from '../../bus/index';
import { KeptValues } from '../../bus/news';

/** The bus channel on which instances tell one another that a lazy data set changed. */
export const LAZY_HASHES_CHANNEL = 'app:lazy-hashes';

/**
 * `hashLazyValue` (SPEC 4.2): each lazily loaded data set (e.g. "Rooms") registers a function
 * returning a short hash of its data; app/config answers all of them so clients refresh only
 * the sets that changed.
 *
 * Each hash is computed once and kept (issue 32: every open page asks every 30 s, and a hash
 * reads a whole table) until the set's writer says `changed(key)`, here and on every other
 * instance over the bus; while the bus's pub/sub is down they are computed on every call.
 */
export class LazyHashes {
  private readonly sources = new Map<string, () => Promise<string>>();
  private readonly values: KeptValues<string>;

  constructor(bus: Bus, onPublishFailed: (error: unknown) => void) {
    this.values = new KeptValues(bus, LAZY_HASHES_CHANNEL, onPublishFailed);
  }

  start(): Promise<void> {
    return this.values.start();
  }

  stop(): Promise<void> {
    return this.values.stop();
  }

  register(key: string, source: () => Promise<string>): void {
    if (this.sources.has(key)) throw new Error(`Lazy data set ${key} is already registered`);
    this.sources.set(key, source);
  }

  /** Called by a set's writer once its change is stored. */
  changed(key: string): Promise<void> {
    return this.values.changed(key);
  }

  /** Every set's hash, from memory where kept (computed one after another on a miss, rare). */
  async all(): Promise<Record<string, string>> {
    const answer: Record<string, string> = {};
    for (const [key, source] of this.sources) answer[key] = await this.values.get(key, source);
    return answer;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    lazyHashes: LazyHashes;
  }
}
