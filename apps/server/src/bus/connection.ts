import { Redis, type RedisOptions } from 'ioredis';
import { pino, type Logger } from 'pino';
import { UnavailableError } from '../http/unavailable';

/**
 * Every Redis connection of the server is opened here (issue 26), so all of them bound every
 * wait, survive an outage and come back by themselves:
 * - a command gets no answer in `commandTimeoutMs` → it fails (the callers fall back or refuse);
 * - a connection that stops answering (a blackholed host sends no reset) is dropped after
 *   `socketTimeoutMs` without data while a command waits, and opened again;
 * - while a connection is not ready, commands fail at once instead of queueing for the outage;
 * - reconnects back off exponentially to `retryCapMs` and never give up;
 * - 'error' events are handled: one warning when Redis becomes unreachable, one line when it is
 *   back, never an unhandled event or a crash.
 */
export interface RedisTiming {
  commandTimeoutMs: number;
  connectTimeoutMs: number;
  socketTimeoutMs: number;
  retryCapMs: number;
  /** First TCP keep-alive probe of an idle connection. */
  keepAliveMs: number;
  /** How often the pub/sub connection is pinged: it has no commands that would notice a dead host. */
  pingMs: number;
}

export const redisTiming: RedisTiming = {
  commandTimeoutMs: 1_000,
  connectTimeoutMs: 1_000,
  // As long as a command may wait: a connection that let one time out is dropped with it.
  socketTimeoutMs: 1_000,
  retryCapMs: 1_000,
  keepAliveMs: 5_000,
  pingMs: 500,
};

export type RedisLog = Pick<Logger, 'warn' | 'info'>;

export function redisOptions(timing: RedisTiming = redisTiming): RedisOptions {
  return {
    commandTimeout: timing.commandTimeoutMs,
    connectTimeout: timing.connectTimeoutMs,
    socketTimeout: timing.socketTimeoutMs,
    keepAlive: timing.keepAliveMs,
    // Queued commands would wait for the whole outage: fail them now, the callers know what to do.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt: number) => Math.min(timing.retryCapMs, 50 * 2 ** attempt),
  };
}

/** What a role's connection is doing now, for readiness and metrics. */
const connections = new Map<Redis, string>();
/** Connections that failed since they were last ready: calls on them don't wait to connect. */
const failing = new WeakSet<Redis>();

export function redisConnections(): { role: string; status: string }[] {
  return [...connections].map(([client, role]) => ({ role, status: client.status }));
}

/**
 * Opens one connection. `role` names it in the log ("bus", "pub/sub", "rate limits").
 * `extra` adds options of that role (the pub/sub connection resubscribes by itself).
 */
export function openRedis(
  url: string,
  role: string,
  log: RedisLog,
  extra: RedisOptions = {},
  timing: RedisTiming = redisTiming,
): Redis {
  const client = new Redis(url, { ...redisOptions(timing), ...extra });
  connections.set(client, role);
  let downSince: number | undefined;
  const down = (error: unknown) => {
    failing.add(client);
    if (downSince !== undefined) return;
    downSince = Date.now();
    log.warn(
      { err: error, redis: role },
      `Redis (${role}) is unreachable: calls that need it are refused or fall back until it is back`,
    );
  };
  // Every retry of an outage errors again: only the first is worth a line.
  client.on('error', down);
  client.on('ready', () => {
    failing.delete(client);
    if (downSince === undefined) return;
    log.info({ redis: role, downMs: Date.now() - downSince }, `Redis (${role}) is reachable again`);
    downSince = undefined;
  });
  client.on('end', () => connections.delete(client));
  return client;
}

/** A logger for connections opened before the app's own logger exists. */
export function defaultRedisLog(level: string = 'info'): RedisLog {
  return pino({ level, name: 'redis' });
}

/**
 * Redis said no to the command itself (a wrong type, a script error): a bug, not an outage.
 * Everything else a command can fail with (timed out, connection closed, not writable) is.
 */
function isReplyError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError';
}

/** The error a Redis call failed with, as the route should answer it. */
export function redisFailure(error: unknown): unknown {
  if (error instanceof UnavailableError || isReplyError(error)) return error;
  return new UnavailableError('redis', error);
}

/** Calls waiting for one connection to be ready: one timer and listener, however many wait. */
const readyWaits = new WeakMap<Redis, Promise<void>>();

/**
 * Resolves when the connection is ready, or after `ms` at most: commands are not queued while it
 * connects (see `redisOptions`), so a call made meanwhile (the first ones after boot, or during
 * a clean reconnect) waits a little instead of failing. A connection known to be failing is not
 * waited for: the outage is answered at once.
 */
export function readyWithin(client: Redis, ms: number): Promise<void> {
  if (client.status === 'ready' || failing.has(client)) return Promise.resolve();
  let wait = readyWaits.get(client);
  if (!wait) {
    wait = new Promise<void>((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        client.off('ready', finish);
        client.off('error', finish);
        readyWaits.delete(client);
        resolve();
      }
      // An error while connecting is an outage: no point waiting for the rest of `ms`.
      client.once('ready', finish);
      client.once('error', finish);
    });
    readyWaits.set(client, wait);
  }
  return wait;
}

/**
 * Runs a Redis call once the connection is ready (waiting `timing.connectTimeoutMs` at most);
 * an outage is thrown as `UnavailableError('redis')`.
 */
export async function onRedis<T>(
  client: Redis,
  call: () => Promise<T>,
  timing: RedisTiming = redisTiming,
): Promise<T> {
  try {
    await readyWithin(client, timing.connectTimeoutMs);
    return await call();
  } catch (error) {
    throw redisFailure(error);
  }
}

/**
 * Closes a connection: politely when it is ready (pending replies arrive), at once otherwise, and
 * at once too when the polite QUIT gets no answer (a silent host): a shutdown never hangs on it.
 */
export async function closeRedis(client: Redis): Promise<void> {
  // Closed is no longer this instance's, whatever ioredis says next: a connection closed while it
  // waits to reconnect stays 'reconnecting' and never emits 'end' (its socket is already gone),
  // so the list of connections (readiness, the role's gauge) would keep a dead one for good.
  connections.delete(client);
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  await client.quit().catch(() => client.disconnect());
}
