import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { createMemoryBus } from '../bus/memory';
import { createRedisBus } from '../bus/redis';
import type { Bus } from '../bus/types';
import { testConfig } from '../config';
import { captchaNotRequired } from '../features/auth/captcha';
import type { DbKind } from './db';
import { createTestApp, postTo, type TestApp } from './test-app';

/** Two instances' set-up: one database, and a bus each (or one shared in memory). */
export interface InstancesCase {
  name: string;
  db: DbKind;
  buses(): [Bus, Bus];
}

const redisUrl = process.env.TEST_REDIS_URL;
const redisBuses = (): [Bus, Bus] => {
  const prefix = `atrium-test:${randomBytes(6).toString('hex')}:`;
  return [createRedisBus(redisUrl ?? '', prefix), createRedisBus(redisUrl ?? '', prefix)];
};

/**
 * SQLite with one memory bus always; SQLite and PostgreSQL over Redis when TEST_REDIS_URL (and
 * TEST_DATABASE_URL) are set, as in production scale-out.
 */
export const instancesCases: InstancesCase[] = [
  {
    name: 'SQLite, one memory bus',
    db: 'sqlite',
    buses: () => {
      const bus = createMemoryBus();
      return [bus, bus];
    },
  },
  ...(redisUrl ? [{ name: 'SQLite, Redis', db: 'sqlite' as const, buses: redisBuses }] : []),
  ...(redisUrl && process.env.TEST_DATABASE_URL
    ? [{ name: 'PostgreSQL, Redis', db: 'postgres' as const, buses: redisBuses }]
    : []),
];

export interface TwoInstances {
  /** The first instance, with the test app's helpers. */
  a: TestApp;
  /** The second, on A's database and clock. */
  b: FastifyInstance;
  postB: TestApp['post'];
  close(): Promise<void>;
}

export async function startTwoInstances(c: InstancesCase): Promise<TwoInstances> {
  const [busA, busB] = c.buses();
  const a = await createTestApp({ db: c.db, bus: busA });
  const b = await buildApp(testConfig(a.dataDir), {
    db: a.db,
    bus: busB,
    now: a.clock.now,
    captcha: captchaNotRequired,
  });
  return {
    a,
    b,
    postB: postTo(b),
    close: async () => {
      await b.close();
      await a.cleanup();
      await busA.close();
      if (busB !== busA) await busB.close();
    },
  };
}
