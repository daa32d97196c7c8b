import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { UnavailableError } from '../http/unavailable';

/**
 * Bounds on every S3 call (issue 26: during an outage a storage call answers within 5 s). A call
 * is cut off on silence, never for its total length, so a 5 MiB part on a slow but live link still
 * goes through: a connection must open within `connectMs` and the socket may not stay silent for
 * `idleMs` (a blackholed store); `budgetMs` bounds the wait for an answer (plus a little per byte
 * sent) including retries of quick failures (a reset, a refused connection, a 503).
 */
export const s3Bounds = {
  connectMs: 2_000,
  idleMs: 3_000,
  budgetMs: 4_500,
  /** Slowest link a part may take: its bytes add to the budget at this rate. */
  minBytesPerMs: 256,
  /**
   * Slowest server-side copy (CompleteMultipartUpload, CopyObject: the store answers once it is
   * done) the budget allows for, per byte copied; such a call also has `longIdleMs` of silence.
   */
  minCopiedBytesPerMs: 50 * 1024,
  longIdleMs: 60_000,
  /** Pause before the next try, times the try's number. */
  retryPauseMs: 150,
  maxTries: 3,
  /**
   * Silence allowed in a file's body once it is being served: a player that stops reading
   * (paused video) stops the store's socket too, and must not be cut off at once.
   */
  servedBodyIdleMs: 60_000,
} as const;

/** Time sending `bytes` may add to a call's budget. */
export function sendingMs(bytes: number): number {
  return bytes / s3Bounds.minBytesPerMs;
}

/** Time the store copying `bytes` on its side may add to a call's budget. */
export function copyingMs(bytes: number): number {
  return bytes / s3Bounds.minCopiedBytesPerMs;
}

/** A 5xx other than 501 (s3rver's "not implemented", an answer, not an outage). */
function isServerTrouble(status: number | undefined): boolean {
  return status !== undefined && status >= 500 && status !== 501;
}

const throttled = new Set(['SlowDown', 'Throttling', 'ThrottlingException', 'RequestTimeout']);
const networkCodes = /^(E[A-Z]+|UND_ERR_\w+)$/;

/**
 * Whether a failed call may pass on its own: the store did not answer (a reset, a refused
 * connection, a time-out on silence, an answer cut short), answered 5xx, or asked to slow down.
 * A 4xx is the store's verdict on the call and passes through as it is.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    return (
      status === undefined || isServerTrouble(status) || status === 429 || throttled.has(error.name)
    );
  }
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && networkCodes.test(code);
}

/** What `S3Calls` sets on an `S3Client`. */
export interface S3ClientBounds {
  maxAttempts: number;
  requestHandler: {
    connectionTimeout: number;
    socketTimeout: number;
    httpAgent: HttpAgent;
    httpsAgent: HttpsAgent;
  };
}

/**
 * The S3 client's connection pools and the bounded way to call it: a silence time-out drops the
 * pooled connections (after a blackhole they lead nowhere, and a healed store is reached only by
 * new ones), so the next call reconnects instead of waiting on a dead socket.
 */
export class S3Calls {
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64 });

  /** The `S3Client` settings that bound each attempt (the retries are `call`'s). */
  clientConfig(): S3ClientBounds {
    return {
      maxAttempts: 1,
      requestHandler: {
        connectionTimeout: s3Bounds.connectMs,
        socketTimeout: s3Bounds.idleMs,
        httpAgent: this.httpAgent,
        httpsAgent: this.httpsAgent,
      },
    };
  }

  /** The settings of a client for calls whose store works silently for a while (copies). */
  longClientConfig(): S3ClientBounds {
    const config = this.clientConfig();
    return {
      ...config,
      requestHandler: { ...config.requestHandler, socketTimeout: s3Bounds.longIdleMs },
    };
  }

  /**
   * Runs `attempt` until it succeeds, fails for good, or the budget is spent: then the store is
   * unavailable. `extraMs`: time the call's size adds to the budget (see `sendingMs`, `copyingMs`).
   */
  async call<T>(attempt: (signal: AbortSignal) => Promise<T>, extraMs = 0): Promise<T> {
    const started = performance.now();
    const budget = s3Bounds.budgetMs + extraMs;
    for (let tries = 1; ; tries += 1) {
      const controller = new AbortController();
      const left = Math.max(1, budget - (performance.now() - started));
      const timer = setTimeout(() => controller.abort(), left);
      try {
        return await attempt(controller.signal);
      } catch (error) {
        const outOfTime = controller.signal.aborted;
        if (!outOfTime && !isTransient(error)) throw error;
        if (outOfTime || (error instanceof Error && error.name === 'TimeoutError'))
          this.dropIdleConnections();
        const pause = s3Bounds.retryPauseMs * tries;
        const spent = performance.now() - started;
        // Another try only when it, too, would be answered within the base budget.
        const late = spent + pause + s3Bounds.idleMs > s3Bounds.budgetMs;
        if (outOfTime || tries >= s3Bounds.maxTries || late)
          throw new UnavailableError('storage', error);
        await sleep(pause);
      } finally {
        clearTimeout(timer);
      }
    }
  }

  private dropIdleConnections(): void {
    for (const agent of [this.httpAgent, this.httpsAgent]) {
      for (const sockets of Object.values(agent.freeSockets)) {
        for (const socket of sockets ?? []) socket.destroy();
      }
    }
  }

  destroy(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
