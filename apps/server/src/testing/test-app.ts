import type { AreaName } from '@atrium/shared/areas';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TokenKey,
  XsrfCookie,
  XsrfHeader,
  type Envelope,
  type LoginResponse,
} from '@atrium/shared';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { buildApp, type AppDeps } from '../app';
import { createMemoryBus } from '../bus/memory';
import type { Bus } from '../bus/types';
import { testConfig, type Config } from '../config';
import type { Db } from '../db/index';
import type { Admin } from '../features/admins/admins.repository';
import { captchaNotRequired } from '../features/auth/captcha';
import type { Member } from '../features/members/members.repository';
import { createTestDb, type DbKind } from './db';

/** A clock tests can move; every time rule in the app reads it. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function createClock(start = Date.UTC(2026, 10, 21, 9, 0, 0)): TestClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
      // Rate limits keep time by the system clock (rate-limiter-flexible): move it along too.
      if (vi.isFakeTimers()) vi.advanceTimersByTime(ms);
    },
  };
}

/**
 * For tests that move time past a rate limit's window: the system clock becomes a fake one that
 * `clock.advance` moves (and that otherwise runs on), for each test of the calling suite.
 */
export function withMovableSystemClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** The fixed XSRF value test clients echo; any value works as long as cookie and header agree. */
export const TEST_XSRF = 'test-xsrf-token';

export type Headers = Record<string, string>;

/** Headers of a signed-in browser: its token plus the matching XSRF cookie and header. */
export function authHeaders(area: AreaName, token: string): Headers {
  return {
    [area === 'admin' ? TokenKey.admin : TokenKey.member]: token,
    cookie: `${XsrfCookie}=${TEST_XSRF}`,
    [XsrfHeader]: TEST_XSRF,
  };
}

/** POSTs JSON to an app through `inject`; `as` signs the request with a token of that area. */
export function postTo(app: FastifyInstance): TestApp['post'] {
  return async <T>(
    url: string,
    body: unknown = {},
    as?: { area: AreaName; token: string; lang?: string },
  ) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        ...(as ? authHeaders(as.area, as.token) : {}),
        ...(as?.lang ? { 'accept-language': as.lang } : {}),
      },
      payload: JSON.stringify(body),
    });
    return { res, json: res.json<Envelope<T>>() };
  };
}

export interface TestAppOptions {
  db?: DbKind;
  /** Extra environment for the config (e.g. ATRIUM_WEB_DIR). */
  env?: Record<string, string>;
  deps?: Omit<AppDeps, 'db' | 'bus' | 'now'>;
  bus?: Bus;
  /** Runs before the app is ready, e.g. to register a route that only a test needs. */
  setup?: (app: FastifyInstance) => void;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  db: Db;
  bus: Bus;
  clock: TestClock;
  dataDir: string;
  cleanup(): Promise<void>;
  /**
   * POSTs JSON; `as` signs the request with a token of that area and, with `lang`, asks for the
   * answer in that language (Accept-Language, as a browser would).
   */
  post<T = unknown>(
    url: string,
    body?: unknown,
    as?: { area: AreaName; token: string; lang?: string },
  ): Promise<{ res: LightMyRequestResponse; json: Envelope<T> }>;
  createAdmin(options?: {
    username?: string;
    password?: string;
    rules?: string[];
    founder?: boolean;
  }): Promise<{
    admin: Admin;
    password: string;
  }>;
  createMember(options?: {
    username?: string;
    password?: string;
    email?: string;
    phone?: string;
  }): Promise<{
    member: Member;
    password: string;
  }>;
  /** Creates (unless `username` exists) and signs in an admin; `rules` omitted means founder. */
  loginAdmin(options?: { username?: string; password?: string; rules?: string[] }): Promise<{
    token: string;
    user: LoginResponse['user'];
  }>;
  loginMember(options?: {
    username?: string;
    password?: string;
  }): Promise<{ token: string; user: LoginResponse['user'] }>;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}${process.pid}_${++counter}`;

/**
 * An app on a freshly migrated database (SQLite temp file unless `db: 'postgres'`), a memory bus
 * on a movable clock, and factories for signed-in admins and members.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-test-'));
  const config = testConfig(dataDir, options.env);
  const testDb = await createTestDb(
    options.db ?? 'sqlite',
    options.db === 'postgres' ? undefined : dataDir,
  );
  const clock = createClock();
  const bus = options.bus ?? createMemoryBus(clock.now);
  // Logins need no captcha unless a test asks for one (deps.captcha), so failed logins in one
  // test don't make the next test's logins ask for it.
  const deps: AppDeps = {
    captcha: captchaNotRequired,
    ...options.deps,
    db: testDb.db,
    bus,
    now: clock.now,
  };
  const app = await buildApp(
    config,
    options.setup ? { ...deps, extraRoutes: options.setup } : deps,
  );

  const post = postTo(app);

  const createAdmin: TestApp['createAdmin'] = async (o = {}) => {
    const password = o.password ?? 'correct horse battery';
    const admin = await app.services.admins.create({
      username: o.username ?? unique('admin_'),
      password,
      isFounder: o.founder ?? false,
      ...(o.rules ? { rules: o.rules } : {}),
    });
    return { admin, password };
  };

  const createMember: TestApp['createMember'] = async (o = {}) => {
    const password = o.password ?? 'member password 1';
    const member = await app.services.members.create({
      username: o.username ?? unique('member_'),
      password,
      ...(o.email ? { email: o.email } : {}),
      ...(o.phone ? { phone: o.phone } : {}),
    });
    return { member, password };
  };

  // Each account signs in from an address of its own, as each person has their own device, so
  // the per-address sign-in limits of one test file's many accounts don't add up.
  const addresses = new Map<string, string>();
  const addressOf = (account: string) => {
    let address = addresses.get(account);
    if (!address) {
      const n = addresses.size + 1;
      address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      addresses.set(account, address);
    }
    return address;
  };

  const login = async (area: AreaName, username: string, password: string) => {
    const url = area === 'admin' ? '/admin/api/auth/login' : '/api/auth/login';
    const res = await app.inject({
      method: 'POST',
      url,
      remoteAddress: addressOf(`${area}:${username}`),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username, password }),
    });
    const json = res.json<Envelope<LoginResponse>>();
    if (json.code !== 0) throw new Error(`test login failed: ${json.msg}`);
    return { token: json.data.token, user: json.data.user };
  };

  return {
    app,
    config,
    db: testDb.db,
    bus,
    clock,
    dataDir,
    post,
    createAdmin,
    createMember,
    loginAdmin: async (o = {}) => {
      const existing = o.username
        ? await app.services.admins.findByUsername(o.username)
        : undefined;
      const { admin, password } = existing
        ? { admin: existing, password: o.password ?? '' }
        : await createAdmin({ ...o, founder: o.rules === undefined });
      return login('admin', admin.username, password);
    },
    loginMember: async (o = {}) => {
      const existing = o.username ? await app.services.members.findByLogin(o.username) : undefined;
      const { member, password } = existing
        ? { member: existing, password: o.password ?? '' }
        : await createMember(o);
      return login('member', member.username, password);
    },
    cleanup: async () => {
      await app.close();
      if (!options.bus) await bus.close();
      await testDb.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One app for the calling file or describe block: made before its tests, `ready` then given it
 * (to keep it and sign someone in), and cleaned up after them.
 */
export function useTestApp(
  ready: (t: TestApp) => Promise<void> | void,
  options: TestAppOptions = {},
): void {
  let made: TestApp | undefined;
  beforeAll(async () => {
    made = await createTestApp(options);
    await ready(made);
  });
  afterAll(async () => {
    await made?.cleanup();
  });
}
