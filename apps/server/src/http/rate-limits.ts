import { Code } from '@atrium/shared';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import {
  closeRedis,
  defaultRedisLog,
  openRedis,
  readyWithin,
  redisTiming,
  type RedisLog,
} from '../bus/connection';
import type { Config } from '../config';
import { ApiError, message } from './envelope';
import { limitSpecs, type LimitName, type LimitSpec, type Wait } from './limits';

/** What a limit has counted for a key in its current window. */
export interface Hit {
  count: number;
  /** Milliseconds before the window ends. */
  msLeft: number;
}

/** Where the counters live: this process, or Redis so that every instance shares them. */
export type LimitStore =
  { kind: 'memory' } | { kind: 'redis'; url: string; prefix: string; log?: RedisLog };

export function waitOf(msLeft: number): Wait {
  const seconds = Math.max(1, Math.ceil(msLeft / 1000));
  if (seconds < 60)
    return {
      seconds,
      text: message(seconds === 1 ? 'time.second' : 'time.seconds', { n: seconds }),
    };
  const minutes = Math.ceil(seconds / 60);
  return { seconds, text: message(minutes === 1 ? 'time.minute' : 'time.minutes', { n: minutes }) };
}

/** The refusal of a limit: code 1004, the limit's own message, and `data.wait` in seconds. */
function limitRefusal(name: LimitName, msLeft: number, limit?: number): ApiError {
  const wait = waitOf(msLeft);
  const spec: LimitSpec = limitSpecs[name];
  return new ApiError(spec.message(wait, limit ?? spec.points), Code.TooManyRequests, {
    wait: wait.seconds,
  });
}

const hitOf = (res: RateLimiterRes): Hit => ({
  count: res.consumedPoints,
  msLeft: Math.max(0, res.msBeforeNext),
});

/**
 * The one rate limiter of the product (DESIGN 1, 7): every limit of `limitSpecs`, counted by
 * rate-limiter-flexible in memory or in Redis with the same semantics. Counting is atomic in
 * both (a Map on one thread; one Lua script in Redis), and callers count an attempt before they
 * check what it guards, so no burst of parallel requests sees a stale count.
 *
 * Redis out of reach (issue 26, README "Redis outages"): every Redis limit has an in-memory
 * twin (rate-limiter-flexible's `insuranceLimiter`) that counts instead, at once while the
 * connection is not ready and after the command timeout when it stopped answering. The limits
 * keep protecting sign-in, per instance, with the same numbers; Redis's counts apply again as
 * soon as it is back.
 */
export class RateLimits {
  private readonly limiters: Record<LimitName, RateLimiterAbstract>;
  private readonly redis: Redis | undefined;

  private readonly windows: Record<LimitName, number>;

  /** `windows`: a limit's window in milliseconds where configuration sets it (see `windowMs`). */
  constructor(
    store: LimitStore = { kind: 'memory' },
    windows: Partial<Record<LimitName, number>> = {},
  ) {
    this.redis =
      store.kind === 'redis'
        ? openRedis(store.url, 'rate limits', store.log ?? defaultRedisLog())
        : undefined;
    const names = Object.keys(limitSpecs) as LimitName[];
    this.windows = Object.fromEntries(
      names.map((n) => [n, windows[n] ?? limitSpecs[n].durationMs]),
    ) as Record<LimitName, number>;
    const make = (name: LimitName): RateLimiterAbstract => {
      const { points } = limitSpecs[name];
      const options = { points, duration: Math.ceil(this.windows[name] / 1000), keyPrefix: name };
      return this.redis && store.kind === 'redis'
        ? new RateLimiterRedis({
            ...options,
            keyPrefix: `${store.prefix}rl:${name}`,
            storeClient: this.redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
    };
    this.limiters = Object.fromEntries(names.map((n) => [n, make(n)])) as Record<
      LimitName,
      RateLimiterAbstract
    >;
  }

  /**
   * A limit's limiter, once its Redis connection is ready: a connecting one (boot, a clean
   * reconnect) is waited for briefly; a failing one is not, so its in-memory twin counts at once.
   */
  private async limiter(name: LimitName): Promise<RateLimiterAbstract> {
    if (this.redis) await readyWithin(this.redis, redisTiming.connectTimeoutMs);
    return this.limiters[name];
  }

  /** How long a limit's window lasts. */
  windowMs(name: LimitName): number {
    return this.windows[name];
  }

  /**
   * Counts one attempt, then refuses it (code 1004, the limit's message) when the window now
   * holds more than the limit: `limit` overrides the declared one where an admin sets it.
   */
  async consume(name: LimitName, key: string, limit?: number): Promise<Hit> {
    const hit = await this.count(name, key);
    const applies = Math.min(limit ?? Infinity, limitSpecs[name].points);
    if (hit.count > applies) throw limitRefusal(name, hit.msLeft, applies);
    return hit;
  }

  /**
   * Counts one attempt against each limit in turn; when one refuses, the attempts already
   * counted on the others are given back, so a refused request costs only the limit it hit.
   */
  async consumeAll(entries: readonly (readonly [LimitName, string])[]): Promise<Hit[]> {
    const hits: Hit[] = [];
    for (const [index, [name, key]] of entries.entries()) {
      try {
        hits.push(await this.consume(name, key));
      } catch (error) {
        await Promise.all(entries.slice(0, index).map(([n, k]) => this.refund(n, k)));
        throw error;
      }
    }
    return hits;
  }

  /** Counts one attempt and never refuses: the caller decides from the count. */
  async count(name: LimitName, key: string, points = 1): Promise<Hit> {
    // penalty() counts like consume() without rejecting, so over-limit attempts stay counted.
    return hitOf(await (await this.limiter(name)).penalty(key, points));
  }

  /** What the window holds for the key now, without counting. */
  async peek(name: LimitName, key: string): Promise<Hit> {
    const res = await (await this.limiter(name)).get(key);
    return res && res.msBeforeNext > 0 ? hitOf(res) : { count: 0, msLeft: 0 };
  }

  /**
   * Gives back attempts counted earlier that turned out not to count (a right password). A
   * window that has ended meanwhile is left alone, so a refund never goes below zero.
   */
  async refund(name: LimitName, key: string, points = 1): Promise<void> {
    const limiter = await this.limiter(name);
    const res = await limiter.get(key);
    if (res && res.msBeforeNext > 0 && res.consumedPoints > 0) {
      await limiter.reward(key, Math.min(points, res.consumedPoints));
    }
  }

  async reset(name: LimitName, key: string): Promise<void> {
    await (await this.limiter(name)).delete(key);
  }

  async close(): Promise<void> {
    if (this.redis) await closeRedis(this.redis);
  }
}

/** The limits of an app: shared through Redis when REDIS_URL is set, in memory otherwise. */
export function createRateLimits(
  config: Pick<Config, 'redisUrl' | 'redisPrefix' | 'verifyResendSeconds'> &
    Partial<Pick<Config, 'logLevel'>>,
): RateLimits {
  return new RateLimits(
    config.redisUrl
      ? {
          kind: 'redis',
          url: config.redisUrl,
          prefix: config.redisPrefix,
          log: defaultRedisLog(config.logLevel),
        }
      : { kind: 'memory' },
    { verifyResendPerTarget: config.verifyResendSeconds * 1000 },
  );
}
