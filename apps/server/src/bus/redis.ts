import { Redis } from 'ioredis';
import type { Bus } from './types';

/**
 * The multi-instance bus over Redis. `prefix` (REDIS_PREFIX; tests use a random one per run)
 * namespaces every key and channel, so deployments sharing a Redis never read each other's
 * captchas or codes. Pub/sub needs its own connection, opened on the first subscribe.
 */
export function createRedisBus(url: string, prefix: string): Bus {
  const client = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false });
  let subscriber: Redis | undefined;
  const handlers = new Map<string, Set<(message: string) => void>>();
  const subscribing = new Map<string, Promise<unknown>>();
  const k = (key: string) => prefix + key;

  const getSubscriber = (): Redis => {
    if (!subscriber) {
      subscriber = client.duplicate();
      subscriber.on('message', (channel: string, message: string) => {
        const set = handlers.get(channel);
        if (set) for (const handler of [...set]) handler(message);
      });
    }
    return subscriber;
  };

  return {
    get: async (key) => (await client.get(k(key))) ?? undefined,
    set: async (key, value, ttlMs) => {
      if (ttlMs === undefined) await client.set(k(key), value);
      else await client.set(k(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    del: async (key) => {
      await client.del(k(key));
    },
    incr: async (key, ttlMs) => {
      // SET NX starts the window only when the key is new; INCR is atomic across instances.
      const result = await client
        .multi()
        .set(k(key), '0', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX')
        .incr(k(key))
        .exec();
      const reply = result?.[1];
      if (!reply || reply[0]) throw reply?.[0] ?? new Error('Redis INCR failed');
      return Number(reply[1]);
    },
    ttl: async (key) => {
      const ms = await client.pttl(k(key));
      return ms >= 0 ? ms : undefined;
    },
    publish: async (channel, message) => {
      await client.publish(k(channel), message);
    },
    subscribe: async (channel, handler) => {
      const name = k(channel);
      const sub = getSubscriber();
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
        subscribing.set(name, sub.subscribe(name));
      }
      const own = (message: string) => handler(message);
      set.add(own);
      // A second subscriber to the same channel also waits until Redis confirms.
      await subscribing.get(name);
      return async () => {
        const current = handlers.get(name);
        if (!current) return;
        current.delete(own);
        if (current.size === 0) {
          handlers.delete(name);
          subscribing.delete(name);
          await sub.unsubscribe(name);
        }
      };
    },
    close: async () => {
      handlers.clear();
      await Promise.all([client.quit(), subscriber?.quit()]);
    },
  };
}
