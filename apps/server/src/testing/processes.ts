import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request, type IncomingHttpHeaders } from 'node:http';
import type { Envelope } from '@atrium/shared';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Real Atrium server processes for the multi-instance suites (DESIGN 2): each runs the built
 * bundle (`dist/main.js start`, built by the tier's global setup) in a process of its own, so a test can kill it with SIGKILL
 * mid-request exactly as a crash would, and several share one PostgreSQL schema and one Redis.
 */

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const multiInstanceEnv = {
  databaseUrl: process.env.TEST_DATABASE_URL,
  redisUrl: process.env.TEST_REDIS_URL,
};

/** Whether the machine has what the multi-instance suites need (PostgreSQL and Redis). */
export const canRunInstances = Boolean(multiInstanceEnv.databaseUrl && multiInstanceEnv.redisUrl);

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGKILL: the crash the suites simulate. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait: a graceful stop. */
  stop(): Promise<void>;
}

export interface Deployment {
  /** Environment every instance of the deployment shares (database, Redis, secret, storage). */
  env: Record<string, string>;
  schema: string;
  /** Starts one more instance with its own data folder (and extra environment). */
  start(extra?: Record<string, string>): Promise<ServerProcess>;
  /** Stops every instance still running and drops the schema and the Redis prefix. */
  cleanup(): Promise<void>;
}

/** How long a start may take before the process is killed and the start fails. */
const startTimeoutMs = 60_000;

/** Starts `dist/main.js start` and resolves once it listens (or rejects with what it printed). */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['dist/main.js', 'start'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Sign-ins at the test cost: argon2 at full cost is auth.test's subject, not these files'.
      ATRIUM_PASSWORD_COST: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    // A start that hangs must not leave a process behind that nobody tracks.
    const timer = setTimeout(() => child.kill('SIGKILL'), startTimeoutMs);
    void exited.then(() => clearTimeout(timer));
    const onData = (data: Buffer) => {
      out += data.toString();
      const match = /Atrium listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      const port = Number(match[1]);
      const gone = async (signal: NodeJS.Signals) => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        await exited;
      };
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        pid: child.pid ?? 0,
        child,
        output: () => out,
        exited,
        kill: () => gone('SIGKILL'),
        stop: () => gone('SIGTERM'),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) =>
      reject(new Error(`Atrium exited (${String(code)}) before listening:\n${out}`)),
    );
  });
}

/**
 * A deployment of instances on the suites' PostgreSQL (a fresh schema) and Redis (a fresh key
 * prefix), sharing one secret; each instance gets a data folder of its own, as separate machines
 * would. `storage` is merged into the shared environment (local disk: a shared folder; S3).
 */
export async function createDeployment(shared: Record<string, string> = {}): Promise<Deployment> {
  const { databaseUrl, redisUrl } = multiInstanceEnv;
  if (!databaseUrl || !redisUrl) throw new Error('TEST_DATABASE_URL and TEST_REDIS_URL are needed');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const root = mkdtempSync(join(tmpdir(), 'atrium-instances-'));
  const env: Record<string, string> = {
    DATABASE_URL: url.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `atrium-test-${schema}:`,
    ATRIUM_SECRET: `instances-secret-${schema}`,
    ATRIUM_ADMIN_PASSWORD: 'instances-Admin-pass-1',
    ATRIUM_CHECK_ANSWERS: 'true',
    ...shared,
  };
  const running: ServerProcess[] = [];
  let n = 0;
  return {
    env,
    schema,
    async start(extra = {}) {
      const dataDir = join(root, `instance-${++n}`);
      mkdirSync(join(dataDir, 'web'), { recursive: true });
      const server = await startServerProcess({
        ATRIUM_DATA_DIR: dataDir,
        ATRIUM_WEB_DIR: join(dataDir, 'web'),
        ...env,
        ...extra,
      });
      running.push(server);
      return server;
    },
    async cleanup() {
      await Promise.all(running.map((s) => s.stop()));
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${env.REDIS_PREFIX}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON to a running instance and reads the envelope (node:http: fetch drops cookies). */
export function postJson<T = unknown>(
  server: Pick<ServerProcess, 'port'>,
  path: string,
  body: unknown = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; json: Envelope<T> }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path,
        headers: {
          'content-type': 'application/json',
          'content-length': String(payload.length),
          ...headers,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              json: JSON.parse(Buffer.concat(parts).toString()) as Envelope<T>,
            });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
