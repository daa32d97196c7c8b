import type { Readable } from 'node:stream';
import { StorageNotFoundError } from '../../../storage/index';
import type { SessionRow } from '../library.tables';
import type { Hasher } from './hasher';

/** Bytes re-read from storage are handed to the hash thread in pieces of about this size. */
const readBatchBytes = 4 * 1024 * 1024;

/**
 * Streams the file from byte `from` through the hash under `key`, from state `start`, in pieces
 * of about `readBatchBytes` with two in flight at most; the state at its end.
 */
export async function foldStream(
  hasher: Hasher,
  key: string,
  session: SessionRow,
  from: number,
  start: string | undefined,
  read: (from: number) => Promise<Readable>,
): Promise<string | undefined> {
  if (from >= session.size) return start;
  const stream = await read(from);
  let offset = from;
  let first = start;
  let batch: Buffer[] = [];
  let batched = 0;
  // Two pieces in flight at most: the hash must not let read bytes pile up.
  const inFlight: Promise<string>[] = [];
  const flush = async () => {
    const piece = Buffer.concat(batch, batched);
    inFlight.push(hasher.fold(key, offset, first, [piece]).state);
    first = undefined;
    offset += batched;
    batch = [];
    batched = 0;
    if (inFlight.length > 2) await inFlight.shift();
  };
  try {
    for await (const part of stream as AsyncIterable<Buffer>) {
      batch.push(part);
      batched += part.length;
      if (batched >= readBatchBytes) await flush();
    }
    if (batched > 0) await flush();
    if (offset !== session.size) throw new StorageNotFoundError(session.stagingKey);
    const states = await Promise.all(inFlight);
    return states.at(-1);
  } finally {
    await Promise.allSettled(inFlight);
    await hasher.drop(key);
  }
}
