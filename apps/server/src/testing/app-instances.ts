import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoginResponse } from '@atrium/shared';
import type { RoomSaveRequest } from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../app';
import { createMemoryBus } from '../bus/memory';
import { createRedisBus } from '../bus/redis';
import type { Bus } from '../bus/types';
import { testConfig } from '../config';
import { createDb, type Db } from '../db/index';
import { captchaNotRequired } from '../features/auth/index';
import { cuttableBus, listen, seedRoom, type Seeded } from '../features/chat/chat.testing';
import type { InstanceTiming } from '../instances/instances';
import { createTestDb, type DbKind, type TestDb } from './db';
import type { FakeOpenAi } from './fake-openai';
import { postTo, type TestApp } from './test-app';

/**
 * Several Atrium instances in this process on one database (a SQLite file or a PostgreSQL
 * schema) and one bus (memory, or Redis under a key prefix of their own), each on real time with
 * the heartbeats it is given. Killing one cuts its database and bus connections and its clients'
 * sockets: from then on the others hear nothing from it, as after `kill -9`.
 */

export interface AppInstance {
  app: FastifyInstance;
  db: Db;
  /** `http://127.0.0.1:<port>`: it listens, for clients that stream. */
  base: string;
  post: TestApp['post'];
  /** Cuts its database, its bus and its clients' connections, as a crash would. */
  kill(): Promise<void>;
  /** Its heartbeat stops moving while it runs on, believing it still holds what it holds. */
  stall(): void;
  /** Its heartbeat moves again. */
  unstall(): void;
  /** Its clock runs `ms` ahead of the wall clock (0: back in step). */
  clockAhead(ms: number): void;
  /** Cuts its bus connection only: it runs on, unheard, as when Redis is out of its reach. */
  cutBus(): void;
  close(): Promise<void>;
}

export interface AppInstances {
  /** The database every instance shares, for a test to read or write behind their backs. */
  testDb: TestDb;
  /**
   * Starts one more instance; `stallGraceMs`: how long others leave a running writer's answers;
   * `lasting`: open until `cleanup` (a seeder), not closed by `closeStarted`.
   */
  start(options?: StartOptions): Promise<AppInstance>;
  /** Closes the instances started so far but the lasting ones (newest first): an `afterEach`. */
  closeStarted(): Promise<void>;
  /** A room on `fake` seeded through `at` by a founder admin made for it (see `seedRoom`). */
  seedRoom(at: AppInstance, fake: FakeOpenAi, room?: Partial<RoomSaveRequest>): Promise<Seeded>;
  /** A new member, signed in through `at`: its token. */
  newMember(at: AppInstance): Promise<string>;
  /** Closes what is still open and drops the database and the data folder. */
  cleanup(): Promise<void>;
}

interface StartOptions {
  timing?: InstanceTiming;
  stallGraceMs?: number;
  lasting?: boolean;
}

export async function createAppInstances(options: {
  db: DbKind;
  bus?: 'memory' | 'redis';
  timing: InstanceTiming;
}): Promise<AppInstances> {
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-instances-'));
  const testDb = await createTestDb(options.db, options.db === 'sqlite' ? dataDir : undefined);
  let schema: string | undefined;
  if (options.db === 'postgres') {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
      testDb.db,
    );
    schema = rows[0]?.schema;
  }
  const redisUrl = process.env.TEST_REDIS_URL ?? '';
  if (options.bus === 'redis' && !redisUrl) throw new Error('TEST_REDIS_URL is needed');
  const redisPrefix = `atrium-test:${randomBytes(6).toString('hex')}:`;
  const memoryBus: Bus | undefined = options.bus === 'redis' ? undefined : createMemoryBus();
  const started: AppInstance[] = [];
  const lasting: AppInstance[] = [];

  async function start(o: StartOptions = {}): Promise<AppInstance> {
    const db = createDb(testDb.database, schema ? { searchPath: schema } : {});
    const shared = memoryBus ?? createRedisBus(redisUrl, redisPrefix);
    const { bus, cut } = cuttableBus(shared);
    let stalledAt: number | undefined;
    let ahead = 0;
    const app = await buildApp(testConfig(dataDir), {
      db,
      bus,
      now: () => stalledAt ?? Date.now() + ahead,
      instanceTiming: o.timing ?? options.timing,
      captcha: captchaNotRequired,
      ...(o.stallGraceMs === undefined
        ? {}
        : { aigc: { generation: { stallGraceMs: o.stallGraceMs } } }),
    });
    const base = await listen(app);
    let killed = false;
    const created: AppInstance = {
      app,
      db,
      base,
      post: postTo(app),
      kill: async () => {
        killed = true;
        cut();
        app.server.closeAllConnections();
        await db.destroy();
        if (shared !== memoryBus) await shared.close();
      },
      stall: () => {
        stalledAt = Date.now();
      },
      unstall: () => {
        stalledAt = undefined;
      },
      clockAhead: (ms) => {
        ahead = ms;
      },
      cutBus: cut,
      close: async () => {
        // A killed instance's own goodbye fails on its cut connections; nobody hears it anyway.
        const closing = app.close();
        if (killed) {
          await closing.catch(() => undefined);
          return;
        }
        await closing;
        await db.destroy();
        if (shared !== memoryBus) await shared.close();
      },
    };
    (o.lasting ? lasting : started).push(created);
    return created;
  }

  const closeStarted = async () => {
    for (const each of started.splice(0).reverse()) await each.close();
  };

  return {
    testDb,
    start,
    closeStarted,
    seedRoom: (at, fake, room = {}) => {
      const loginAdmin = async () => {
        const password = 'instances admin password';
        const admin = await at.app.services.admins.create({
          username: `admin_${randomBytes(4).toString('hex')}`,
          password,
          isFounder: true,
        });
        const { json } = await at.post<LoginResponse>('/admin/api/auth/login', {
          username: admin.username,
          password,
        });
        return { token: json.data.token, user: json.data.user };
      };
      return seedRoom({ post: at.post, loginAdmin }, fake, room);
    },
    async newMember(at) {
      const password = 'instances member password';
      const created = await at.app.services.members.create({
        username: `member_${randomBytes(4).toString('hex')}`,
        password,
      });
      const login = await at.post<LoginResponse>('/api/auth/login', {
        username: created.username,
        password,
      });
      return login.json.data.token;
    },
    async cleanup() {
      await closeStarted();
      for (const each of lasting.splice(0).reverse()) await each.close();
      await testDb.cleanup();
      await memoryBus?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
