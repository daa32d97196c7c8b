import { afterAll, beforeAll } from 'vitest';
import { TEST_API_KEY } from '../features/chat/chat.testing';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai';
import { startFaultProxy, type FaultProxy } from './fault-proxy';
import { startPrivateRedis, type PrivateRedis } from './private-services';
import {
  createDeployment,
  multiInstanceEnv,
  type Deployment,
  type ServerProcess,
} from './processes';
import { setUpChatRoom, type ChatRoomSetup } from './process-calls';

/**
 * Where a fault proxy stands, if anywhere:
 * - `a-database`: between instance A and PostgreSQL (B reaches it directly);
 * - `redis`: between both instances and a redis-server of the test's own (`redis` below).
 */
export type ProxyAt = 'a-database' | 'redis';

export interface InstancePair {
  deployment: Deployment;
  /** The scripted provider both instances' room talks to (key TEST_API_KEY). */
  fake: FakeOpenAi;
  a: ServerProcess;
  b: ServerProcess;
  /** The fault proxy asked for with `proxyAt`. */
  proxy: FaultProxy | undefined;
  /** The private redis-server behind the proxy, with `proxyAt: 'redis'`. */
  redis: PrivateRedis | undefined;
  /** A chat room with no limits, set up through B, and a member with `credentials` signed in on A. */
  chatRoom(credentials: { username: string; password: string }): Promise<ChatRoomSetup>;
  /** Heals the proxy, stops the instances, drops the deployment and closes what the pair opened. */
  cleanup(): Promise<void>;
}

/**
 * Two real instances (A and B) of one deployment on the suites' PostgreSQL and Redis, a scripted
 * provider, and a fault proxy where `proxyAt` says: the set-up the multi-instance fault and
 * kill suites share.
 */
export function startInstancePair(options: {
  proxyAt: 'redis';
}): Promise<InstancePair & { proxy: FaultProxy; redis: PrivateRedis }>;
export function startInstancePair(options: {
  proxyAt: 'a-database';
}): Promise<InstancePair & { proxy: FaultProxy }>;
export function startInstancePair(): Promise<InstancePair>;
export async function startInstancePair(
  options: { proxyAt?: ProxyAt } = {},
): Promise<InstancePair> {
  const redis = options.proxyAt === 'redis' ? await startPrivateRedis() : undefined;
  const database = new URL(multiInstanceEnv.databaseUrl ?? '');
  const proxy = !options.proxyAt
    ? undefined
    : await startFaultProxy(
        redis
          ? { host: '127.0.0.1', port: redis.port }
          : { host: database.hostname, port: Number(database.port || 5432) },
      );
  const fake = await startFakeOpenAi({ apiKey: TEST_API_KEY });
  const deployment = await createDeployment(
    redis && proxy ? { REDIS_URL: `redis://${proxy.address}` } : {},
  );
  const aEnv: Record<string, string> = {};
  if (proxy && options.proxyAt === 'a-database') {
    const throughProxy = new URL(deployment.env.DATABASE_URL ?? '');
    throughProxy.host = proxy.address;
    aEnv.DATABASE_URL = throughProxy.toString();
  }
  const [a, b] = await Promise.all([deployment.start(aEnv), deployment.start()]);
  return {
    deployment,
    fake,
    a,
    b,
    proxy,
    redis,
    chatRoom: (credentials) =>
      setUpChatRoom({
        deployment,
        adminOn: b,
        memberOn: a,
        providerUrl: fake.url,
        apiKey: TEST_API_KEY,
        credentials,
      }),
    async cleanup() {
      proxy?.resume();
      proxy?.heal();
      await deployment.cleanup();
      await proxy?.close();
      await fake.close();
      await redis?.destroy();
    },
  };
}

/**
 * `startInstancePair` for a whole suite, as `useTestApp` is for one app: started before the
 * suite's tests and cleaned up after them. Answers the pair, for the tests to take once started.
 */
export function useInstancePair(options: {
  proxyAt: 'redis';
}): () => InstancePair & { proxy: FaultProxy; redis: PrivateRedis };
export function useInstancePair(options: {
  proxyAt: 'a-database';
}): () => InstancePair & { proxy: FaultProxy };
export function useInstancePair(): () => InstancePair;
export function useInstancePair(options?: { proxyAt: ProxyAt }): () => InstancePair {
  let pair: InstancePair | undefined;
  beforeAll(async () => {
    pair = await (options?.proxyAt === 'redis'
      ? startInstancePair({ proxyAt: 'redis' })
      : options?.proxyAt === 'a-database'
        ? startInstancePair({ proxyAt: 'a-database' })
        : startInstancePair());
  });
  afterAll(async () => {
    await pair?.cleanup();
  });
  return () => {
    if (!pair) throw new Error('the instance pair starts before the suite’s tests');
    return pair;
  };
}
