import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A PostgreSQL cluster and a redis-server of a fault test's own (issue 26), so that it may
 * restart, stop and kill them: the machine's own services are never restarted. Both need the
 * server binaries (Debian's postgresql and redis-server packages, present where the PostgreSQL
 * and Redis suites run).
 */

const run = promisify(execFile);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Root may not run PostgreSQL: the cluster runs as the `postgres` user when we are root. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
}

async function pgBin(name: string): Promise<string> {
  try {
    const { stdout } = await run('pg_config', ['--bindir']);
    return join(stdout.trim(), name);
  } catch {
    return name;
  }
}

export interface PrivatePostgres {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** `pg_ctl restart -m fast`: every connection is ended with 57P01. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and deletes its folder. */
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const [initdb, pgCtl] = await Promise.all([pgBin('initdb'), pgBin('pg_ctl')]);
  const exec = (command: string, args: string[]) => {
    const [cmd, argv] = asPostgres(command, args);
    return run(cmd, argv, { timeout: 60_000 });
  };
  await exec(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const ctl = (action: string, extra: string[] = []) =>
    exec(pgCtl, [
      action,
      '-D',
      data,
      '-w',
      '-t',
      '30',
      '-o',
      options,
      '-l',
      join(dir, 'log'),
      ...extra,
    ]);
  await ctl('start');
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: async () => {
      await ctl('restart', ['-m', 'fast']);
    },
    stop: async () => {
      await ctl('stop', ['-m', 'fast']);
    },
    start: async () => {
      await ctl('start');
    },
    destroy: async () => {
      await ctl('stop', ['-m', 'immediate']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  port: number;
  url: string;
  /** SIGTERM, then the same server again on the same port (empty: nothing is saved). */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const process_ = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = process_;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
      process_.stdout?.on('data', (data: Buffer) => {
        if (data.toString().includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      process_.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}`));
      });
    });
  };
  const stop = async () => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await stop();
      await start();
    },
    stop,
    start,
    destroy: stop,
  };
}
