import { errorCode, outageOf } from './http/unavailable';

/** Codes of a socket whose peer went away or cannot be reached: the network, not our code. */
const networkCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * Whether an error stands for infrastructure blinking (a database, Redis, storage or network
 * peer out of reach, a full disk) rather than a bug in this process.
 */
export function isInfrastructureError(error: unknown): boolean {
  if (outageOf(error) !== undefined) return true;
  const code = errorCode(error);
  return code !== undefined && networkCodes.has(code);
}

export interface GuardLog {
  warn(details: object, message: string): void;
  fatal(details: object, message: string): void;
}

/**
 * The process's policy for an error no handler caught (issue 26). Infrastructure errors are
 * logged and the process keeps serving: every adapter drops its broken connection and reconnects
 * by itself, and ending the process would turn a blink of PostgreSQL or Redis into an outage of
 * every instance at once. Anything else is a bug that may have left state half-changed: it is
 * logged and the process ends, as Node's default would, for the supervisor to restart.
 */
export function escapedErrorHandler(
  log: GuardLog,
  exit: (code: number) => void,
): (kind: 'unhandledRejection' | 'uncaughtException', error: unknown) => void {
  return (kind, error) => {
    if (isInfrastructureError(error)) {
      log.warn(
        { err: error, kind },
        'infrastructure error not handled where it happened; serving on',
      );
      return;
    }
    log.fatal({ err: error, kind }, 'unexpected error: the process ends');
    exit(1);
  };
}

/** Installs `escapedErrorHandler` for the server process (main.ts). */
export function guardProcess(log: GuardLog, exit: (code: number) => void): void {
  const handle = escapedErrorHandler(log, exit);
  process.on('unhandledRejection', (error) => handle('unhandledRejection', error));
  process.on('uncaughtException', (error) => handle('uncaughtException', error));
}
