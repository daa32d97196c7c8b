import type { Redis } from 'ioredis';
import {
  closeRedis,
  defaultRedisLog,
  onRedis,
  openRedis,
  redisTiming,
  type RedisLog,
  type RedisTiming,
} from './connection';
import type { Bus, PubSubState } from './types';

export interface RedisBusOptions {
  log?: RedisLog;
  timing?: RedisTiming;
}

/**
 * The multi-instance bus over Redis. `prefix` (REDIS_PREFIX; tests use a random one per run)
 * namespaces every key and channel, so deployments sharing a Redis never read each other's
 * captchas or codes. Pub/sub needs its own connection, opened on the first subscribe.
 *
 * Outages (issue 26): key/value calls and publish fail within the command timeout as
 * `UnavailableError('redis')`. Subscriptions live in `handlers`, the one list of what this
 * instance listens to: each time the pub/sub connection is ready (again) it subscribes to all of
 * them, and until Redis confirms, `pubsub().live` is false so that subscribers catch up from
 * the database. The pub/sub connection is pinged, since a host that vanished sends nothing a
 * pure listener would notice.
 */
export function createRedisBus(url: string, prefix: string, options: RedisBusOptions = {}): Bus {
  const log = options.log ?? defaultRedisLog();
  const timing = options.timing ?? redisTiming;
  const client = openRedis(url, 'bus', log, {}, timing);
  let subscriber: Redis | undefined;
  let pinger: NodeJS.Timeout | undefined;
  const handlers = new Map<string, Set<(message: string) => void>>();
  const state: PubSubState = { live: false, outages: 0 };
  const k = (key: string) => prefix + key;
  const run = <T>(call: () => Promise<T>) => onRedis(client, call, timing);

  const lost = () => {
    if (!state.live) return;
    state.live = false;
    state.outages += 1;
  };

  /** Told when a round of `subscribeAll` is over, for subscribe calls that wait on it. */
  let rounds = new Set<() => void>();

  /** Subscribes the connection to every channel listened to; live once Redis confirms. */
  const subscribeAll = async (sub: Redis) => {
    const names = [...handlers.keys()];
    try {
      if (names.length > 0) await sub.subscribe(...names);
      if (sub.status === 'ready') state.live = true;
    } catch {
      // The connection failed again: its next 'ready' tries again.
      lost();
    }
    const waiting = rounds;
    rounds = new Set();
    for (const done of waiting) done();
  };

  /**
   * Resolves once Redis confirmed the channel, or after a command timeout: a subscription made
   * during an outage is registered and goes live with the next `subscribeAll`.
   */
  const confirm = (sub: Redis, name: string): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, timing.commandTimeoutMs);
      function done() {
        clearTimeout(timer);
        rounds.delete(done);
        resolve();
      }
      if (sub.status === 'ready') sub.subscribe(name).catch(lost).finally(done);
      else rounds.add(done);
    });
  const confirmations = new Map<string, Promise<void>>();

  const getSubscriber = (): Redis => {
    if (subscriber) return subscriber;
    // Our own resubscription (not ioredis's): it also covers channels added while Redis was down.
    const sub = openRedis(url, 'pub/sub', log, { autoResubscribe: false }, timing);
    subscriber = sub;
    sub.on('message', (channel: string, message: string) => {
      const set = handlers.get(channel);
      if (set) for (const handler of [...set]) handler(message);
    });
    sub.on('ready', () => void subscribeAll(sub));
    sub.on('close', lost);
    pinger = setInterval(() => {
      if (sub.status !== 'ready') return;
      // A ping without an answer: messages may be lost already; the socket timeout reconnects.
      sub.ping().catch(lost);
    }, timing.pingMs);
    pinger.unref();
    return sub;
  };

  return {
    get: (key) => run(async () => (await client.get(k(key))) ?? undefined),
    set: (key, value, ttlMs) =>
      run(async () => {
        if (ttlMs === undefined) await client.set(k(key), value);
        else await client.set(k(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)));
      }),
    del: (key) =>
      run(async () => {
        await client.del(k(key));
      }),
    incr: (key, ttlMs) =>
      run(async () => {
        // SET NX starts the window only when the key is new; INCR is atomic across instances.
        const result = await client
          .multi()
          .set(k(key), '0', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX')
          .incr(k(key))
          .exec();
        const reply = result?.[1];
        if (!reply || reply[0]) throw reply?.[0] ?? new Error('Redis INCR failed');
        return Number(reply[1]);
      }),
    ttl: (key) =>
      run(async () => {
        const ms = await client.pttl(k(key));
        return ms >= 0 ? ms : undefined;
      }),
    // Any instance may subscribe to any channel.
    mayHaveSubscribers: () => true,
    publish: (channel, message) =>
      run(async () => {
        await client.publish(k(channel), message);
      }),
    subscribe: async (channel, handler) => {
      const name = k(channel);
      const sub = getSubscriber();
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
        confirmations.set(name, confirm(sub, name));
      }
      const own = (message: string) => handler(message);
      set.add(own);
      // A second subscriber to the same channel also waits until Redis confirms.
      await confirmations.get(name);
      return async () => {
        const current = handlers.get(name);
        if (!current) return;
        current.delete(own);
        if (current.size > 0) return;
        handlers.delete(name);
        confirmations.delete(name);
        // Not subscribed on Redis any more once the connection is gone: nothing to undo then.
        if (sub.status === 'ready') await sub.unsubscribe(name).catch(() => undefined);
      };
    },
    pubsub: () => {
      // Without a subscription nothing can be missed.
      if (!subscriber) return { live: true, outages: state.outages };
      return { ...state };
    },
    ping: () =>
      run(async () => {
        await client.ping();
      }),
    close: async () => {
      clearInterval(pinger);
      handlers.clear();
      await Promise.all([closeRedis(client), subscriber && closeRedis(subscriber)]);
    },
  };
}
