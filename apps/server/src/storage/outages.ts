import { PassThrough, type Readable } from 'node:stream';
import { errorCode, outageOf, UnavailableError } from '../http/unavailable';

/**
 * Node's codes for a store that cannot do its job now (issue 26): the disk or its mount failed
 * (EIO, a read-only remount after errors, a stale or lost network mount), or the process ran out
 * of file handles. They pass, or need an operator; either way the call may be tried again and
 * nothing the upload engine recorded is lost, so they are refusals, not crashes.
 */
const storageDownCodes = new Set([
  'EIO',
  'EROFS',
  'ESTALE',
  'ENOTCONN',
  'EHOSTDOWN',
  'ETIMEDOUT',
  'EMFILE',
  'ENFILE',
  'EBUSY',
]);

/**
 * The error a storage call throws for `error`: an `UnavailableError` when the store is out of
 * reach ('storage') or out of space ('diskFull'), otherwise `error` itself (a missing object, a
 * bug: the callers' own handling stays as it was).
 */
export function storageFailure(error: unknown): unknown {
  if (error instanceof UnavailableError) return error;
  if (outageOf(error) === 'diskFull') return new UnavailableError('diskFull', error);
  const code = errorCode(error);
  if (code !== undefined && storageDownCodes.has(code))
    return new UnavailableError('storage', error);
  return error;
}

/**
 * `inner` as a stream whose errors are storage failures (see `storageFailure`), and which fails
 * as unavailable when it ends short of `expectedBytes`: a store that went away mid-answer must
 * not pass for a shorter file (the upload engine would take that as lost bytes and start over).
 * Destroying the result destroys `inner`.
 */
export function guardStream(inner: Readable, expectedBytes?: number): Readable {
  const out = new PassThrough({ highWaterMark: inner.readableHighWaterMark });
  let received = 0;
  inner.on('error', (error) => out.destroy(storageFailure(error) as Error));
  if (expectedBytes !== undefined)
    inner.on('data', (piece: Buffer) => {
      received += piece.length;
    });
  inner.once('end', () => {
    if (expectedBytes === undefined || received === expectedBytes) out.end();
    else
      out.destroy(
        new UnavailableError(
          'storage',
          new Error(`the store sent ${received} of ${expectedBytes} bytes`),
        ),
      );
  });
  out.once('close', () => inner.destroy());
  inner.pipe(out, { end: false });
  return out;
}
