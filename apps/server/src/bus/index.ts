import type { Config } from '../config';
import { createMemoryBus } from './memory';
import { createRedisBus } from './redis';
import type { Bus } from './types';

export function createBus(
  config: Pick<Config, 'redisUrl' | 'redisPrefix'>,
  now: () => number = Date.now,
): Bus {
  return config.redisUrl
    ? createRedisBus(config.redisUrl, config.redisPrefix)
    : createMemoryBus(now);
}

export type { Bus } from './types';
