import { Code, unavailableData, type Envelope, type Outage } from '@atrium/shared';
import { message, refusal } from './envelope';

/**
 * Something a call needs is out of reach (issue 26): thrown by the adapters of the database,
 * Redis and storage (or recognised from their errors by `outageOf`), answered by the error
 * handler as a retryable `Code.Unavailable` refusal that says what happened, never as a crash.
 */
export class UnavailableError extends Error {
  constructor(
    readonly outage: Outage,
    override readonly cause?: unknown,
  ) {
    super(
      `${outage} unavailable${cause instanceof Error ? `: ${cause.message}` : cause ? `: ${String(cause)}` : ''}`,
    );
    this.name = 'UnavailableError';
  }
}

/** Told of every call refused for an outage (the metrics count them by kind). */
export const outageListeners = new Set<(outage: Outage) => void>();

/** Node's codes for a disk (or quota) that can take no more bytes. */
const diskFullCodes = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
/** SQLite could not read or write its file, or waited its busy timeout out. */
const sqliteDownCodes = /^SQLITE_(IOERR|BUSY|LOCKED|CANTOPEN|PROTOCOL|NOMEM)/;
/**
 * PostgreSQL SQLSTATEs of a server that is going away or cannot take the call now: class 08
 * (connection exception), 57P01–57P05 (shut down, crashed, starting, idle/session timeout),
 * 57014 (statement timeout), 53300 (too many connections), 53200/53400 (out of memory, limits);
 * 53100 is its disk full.
 */
const pgDownCodes = /^(08\d{3}|57P0[1-5]|57014|53[234]00)$/;
/** Messages node-postgres gives a connection it lost or could not get (no SQLSTATE). */
const pgDownMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  'Connection unexpectedly closed',
];

/** The string `code` of a Node, driver or SQLite error (ENOSPC, 57P01, SQLITE_FULL…), if any. */
export function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object' || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The outage an error stands for, or undefined for any other error (a bug, answered as a crash).
 * Adapters tag their errors (`UnavailableError`); this also recognises the database drivers'
 * own errors, which reach here through Kysely untagged, and a full disk anywhere.
 */
export function outageOf(error: unknown, depth = 0): Outage | undefined {
  if (error instanceof UnavailableError) return error.outage;
  if (error === null || typeof error !== 'object' || depth > 3) return undefined;
  const code = errorCode(error);
  if (code !== undefined) {
    if (diskFullCodes.has(code) || code === '53100') return 'diskFull';
    if (sqliteDownCodes.test(code) || pgDownCodes.test(code)) return 'database';
  }
  const message = error instanceof Error ? error.message : '';
  if (pgDownMessages.some((text) => message.includes(text))) return 'database';
  // AggregateError (a connect to several addresses) and wrapped causes.
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = outageOf(inner, depth + 1);
      if (found) return found;
    }
  }
  return 'cause' in error ? outageOf((error as { cause: unknown }).cause, depth + 1) : undefined;
}

/**
 * The refusal of an outage. `upload`: answered to an upload call, whose msg also carries
 * `ShouldRetryUpload` so that SPEC's uploader (WebUploader as ModStart drives it) tries the file
 * again; the upload session is kept, so the retry resumes from the chunks already held.
 */
export function unavailableRefusal(outage: Outage, upload = false): Envelope {
  for (const listener of outageListeners) listener(outage);
  const reason = message(`unavailable.${outage}`);
  return refusal(
    upload ? message('http.shouldRetryUpload', { reason }) : reason,
    Code.Unavailable,
    unavailableData(outage),
  );
}
