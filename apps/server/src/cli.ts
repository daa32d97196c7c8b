import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from './app';
import { createBus } from './bus/index';
import { ConfigError, loadConfig, resolveSecret, secretFile, type Config } from './config';
import { createDb, longWorkPgTimeouts, type Db } from './db/index';
import { migrateToLatest } from './db/migrate';
import { withStartupLock } from './db/startup-lock';
import { AdminsService, FOUNDER_USERNAME } from './features/admins/admins.service';
import { SessionsRepository } from './features/auth/sessions.repository';
import { render, type Language } from '@atrium/shared/messages/catalogue';
import { ApiError } from './http/envelope';
import { usePasswordCost } from './security/passwords';
import { verifySecret, type SecretSource } from './security/secret-verifier';

export interface CliIo {
  /** Defaults to process.env (read by loadConfig, the only reader). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  out(text: string): void;
  err(text: string): void;
}

export interface RunningServer {
  app: FastifyInstance;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish, then closes the db and bus. */
  stop(): Promise<void>;
}

export type CliResult = { code: number; server?: undefined } | { code: 0; server: RunningServer };

const USAGE = `Usage: atrium <command>

Commands:
  start                      migrate, create the first admin if needed, and serve
  migrate                    apply pending database migrations
  create-admin --username U --password P [--rules 'a,b,c']
                             add an admin; with --rules also a role named U holding those rules
`;

const SESSION_SWEEP_MS = 60 * 60_000;

function founderBanner(password: string, generated: boolean): string {
  const line = '='.repeat(64);
  const body = generated
    ? [
        `  Admin account created: ${FOUNDER_USERNAME} / ${password}`,
        '  This password is shown only once. Sign in at /admin/ and keep it safe.',
      ]
    : [`  Admin account created: ${FOUNDER_USERNAME} (password from ATRIUM_ADMIN_PASSWORD)`];
  return `\n${line}\n${body.join('\n')}\n${line}\n\n`;
}

type RunConfig = Config & { secret: string };

/**
 * Opens the database and runs `work` under the start-up lock, closing it again if work fails.
 * Its statements may run as long as migrations and backfills need (`longWorkPgTimeouts`), so a
 * server opens another connection pool, with the calls' short bounds, once this work is done.
 */
async function openLocked<T>(config: Config, work: (db: Db) => Promise<T>): Promise<[Db, T]> {
  const db = createDb(config.database, { timeouts: longWorkPgTimeouts });
  try {
    return [db, await withStartupLock(db, config.database, () => work(db))];
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

async function openMigrated(config: Config): Promise<Db> {
  const [db] = await openLocked(config, migrateToLatest);
  return db;
}

async function start(config: RunConfig, secretSource: SecretSource, io: CliIo): Promise<CliResult> {
  // One critical section: a second instance starting meanwhile waits, then finds the tables
  // migrated, the secret's verifier recorded and the first admin created, so only one prints it.
  const [setupDb, founder] = await openLocked(config, async (opened) => {
    await migrateToLatest(opened);
    await verifySecret(opened, config.secret, secretSource, Date.now());
    return new AdminsService(opened, Date.now).ensureFounder(config.adminPassword);
  });
  await setupDb.destroy();
  if (founder.created) io.out(founderBanner(founder.password, founder.generated));

  // One logger for the server and its database pool, which reports lost and restored connections.
  const logger = pino({ level: config.logLevel });
  const db = createDb(config.database, { logger });
  const bus = createBus(config);
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { db, bus, logger });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await bus.close();
    await db.destroy();
    throw error;
  }
  const sessions = new SessionsRepository(db);
  const sweeper = setInterval(() => {
    sessions
      .deleteExpired(Date.now())
      .catch((error: unknown) => app.log.warn({ err: error }, 'session sweep failed'));
  }, SESSION_SWEEP_MS);
  sweeper.unref();

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  io.out(`Atrium listening on http://localhost:${port}\n`);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      clearInterval(sweeper);
      await app.close();
      await bus.close();
      await db.destroy();
    })();
    return stopping;
  };
  return { code: 0, server: { app, port, stop } };
}

async function migrate(config: Config, io: CliIo): Promise<CliResult> {
  const [db, applied] = await openLocked(config, migrateToLatest);
  try {
    io.out(
      applied.length
        ? `Applied migrations:\n${applied.map((m) => `  ${m}\n`).join('')}`
        : 'Database is up to date\n',
    );
    return { code: 0 };
  } finally {
    await db.destroy();
  }
}

async function createAdmin(config: Config, args: string[], io: CliIo): Promise<CliResult> {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      rules: { type: 'string' },
    },
    strict: true,
  });
  if (!values.username || !values.password) {
    io.err(`create-admin needs --username and --password\n\n${USAGE}`);
    return { code: 2 };
  }
  const rules = values.rules
    ?.split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const db = await openMigrated(config);
  try {
    const admin = await new AdminsService(db, Date.now).create({
      username: values.username,
      password: values.password,
      ...(rules ? { rules } : {}),
    });
    io.out(
      `Admin created: ${admin.username}${rules ? ` (role ${admin.username}: ${rules.join(', ')})` : ''}\n`,
    );
    return { code: 0 };
  } catch (error) {
    if (error instanceof ApiError) {
      io.err(`${render(terminalLanguage(io.env), error.ref)}\n`);
      return { code: 1 };
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

/** The operator's language, as the terminal's locale names it (Chinese when it is zh_*). */
function terminalLanguage(env: Record<string, string | undefined> = {}): Language {
  return /^zh/i.test(env.LC_ALL || env.LC_MESSAGES || env.LANG || '') ? 'zh-CN' : 'en';
}

/** Runs one CLI command. `start` resolves once listening and hands back the running server. */
export async function runCli(argv: string[], io: CliIo): Promise<CliResult> {
  const [command, ...rest] = argv;
  if (command !== 'start' && command !== 'migrate' && command !== 'create-admin') {
    (command ? io.err : io.out)(`${command ? `Unknown command: ${command}\n\n` : ''}${USAGE}`);
    return { code: command ? 2 : 0 };
  }
  let config: RunConfig;
  let secretSource: SecretSource;
  try {
    const loaded = loadConfig(io.env, io.cwd);
    secretSource = loaded.secret ? { kind: 'env' } : { kind: 'file', file: secretFile(loaded) };
    config = resolveSecret(loaded);
    usePasswordCost(config.passwordCost);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`${error.message}\n`);
      return { code: 1 };
    }
    throw error;
  }
  try {
    if (command === 'start') return await start(config, secretSource, io);
    if (command === 'migrate') return await migrate(config, io);
    return await createAdmin(config, rest, io);
  } catch (error) {
    if (
      error instanceof TypeError &&
      'code' in error &&
      String(error.code).startsWith('ERR_PARSE_ARGS')
    ) {
      io.err(`${error.message}\n\n${USAGE}`);
      return { code: 2 };
    }
    const cause =
      error instanceof Error && error.cause instanceof Error
        ? `\n  cause: ${error.cause.message}`
        : '';
    io.err(
      `atrium ${command} failed: ${error instanceof Error ? error.message : String(error)}${cause}\n`,
    );
    return { code: 1 };
  }
}
