import type { Bus } from './types';

interface Entry {
  value: string;
  expiresAt: number | undefined;
}

/** The single-instance bus. `now` is injectable so tests can move time past expiries. */
export function createMemoryBus(now: () => number = Date.now): Bus {
  const store = new Map<string, Entry>();
  const channels = new Map<string, Set<(message: string) => void>>();

  const live = (key: string): Entry | undefined => {
    const entry = store.get(key);
    if (entry && entry.expiresAt !== undefined && entry.expiresAt <= now()) {
      store.delete(key);
      return undefined;
    }
    return entry;
  };

  // Expired keys are otherwise only dropped when read; sweep so unread keys don't pile up.
  const sweeper = setInterval(() => {
    const t = now();
    for (const [key, entry] of store) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= t) store.delete(key);
    }
  }, 60_000);
  sweeper.unref();

  return {
    get: (key) => Promise.resolve(live(key)?.value),
    set: (key, value, ttlMs) => {
      store.set(key, { value, expiresAt: ttlMs === undefined ? undefined : now() + ttlMs });
      return Promise.resolve();
    },
    del: (key) => {
      store.delete(key);
      return Promise.resolve();
    },
    incr: (key, ttlMs) => {
      const entry = live(key);
      const count = (entry ? Number(entry.value) || 0 : 0) + 1;
      store.set(key, { value: String(count), expiresAt: entry ? entry.expiresAt : now() + ttlMs });
      return Promise.resolve(count);
    },
    ttl: (key) => {
      const entry = live(key);
      return Promise.resolve(entry?.expiresAt === undefined ? undefined : entry.expiresAt - now());
    },
    mayHaveSubscribers: (channel) => channels.has(channel),
    publish: (channel, message) => {
      const handlers = channels.get(channel);
      // Delivered asynchronously, as over Redis, so publishers never run subscriber code inline.
      if (handlers) for (const handler of [...handlers]) queueMicrotask(() => handler(message));
      return Promise.resolve();
    },
    subscribe: (channel, handler) => {
      let handlers = channels.get(channel);
      if (!handlers) {
        handlers = new Set();
        channels.set(channel, handlers);
      }
      const own = (message: string) => handler(message);
      handlers.add(own);
      return Promise.resolve(() => {
        handlers.delete(own);
        if (handlers.size === 0) channels.delete(channel);
        return Promise.resolve();
      });
    },
    // One process: nothing between a publisher and its subscribers can go down.
    pubsub: () => ({ live: true, outages: 0 }),
    ping: () => Promise.resolve(),
    close: () => {
      clearInterval(sweeper);
      store.clear();
      channels.clear();
      return Promise.resolve();
    },
  };
}
