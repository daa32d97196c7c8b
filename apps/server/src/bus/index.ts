import type { Config } from '../config';
import { defaultRedisLog } from './connection';
import { createMemoryBus } from './memory';
import { createRedisBus } from './redis';
import type { Bus } from './types';

export function createBus(
  config: Pick<Config, 'redisUrl' | 'redisPrefix'> & Partial<Pick<Config, 'logLevel'>>,
  now: () => number = Date.now,
): Bus {
  return config.redisUrl
    ? createRedisBus(config.redisUrl, config.redisPrefix, { log: defaultRedisLog(config.logLevel) })
    : createMemoryBus(now);
}

export { redisConnections } from './connection';
export type { Bus, PubSubState } from './types';
