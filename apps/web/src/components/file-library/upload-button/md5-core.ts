import { createMD5 } from 'hash-wasm';

/**
 * Progress granularity, and the size of the one buffer the file is read into: big enough to keep
 * WASM busy, small enough that memory stays flat.
 */
export const md5SliceBytes = 4 * 1024 * 1024;

export type Md5Progress = (done: number, total: number) => void;

type Hasher = Awaited<ReturnType<typeof createMD5>>;

/**
 * MD5 of a blob, read front to back. Progress is reported once per `md5SliceBytes` slice (and at
 * the end), and cancellation is checked at the same points.
 *
 * Where the blob's stream is a byte stream (Chromium, Firefox, Node) it is read with a BYOB reader
 * into one reused buffer, and each piece is hashed as soon as it arrives while the browser keeps
 * filling its pipe. Measured in Chromium on a 512 MiB file: reading this way takes under half the
 * CPU of `slice().arrayBuffer()` per 4 MiB slice (a fresh buffer and a new blob read each time),
 * and the hashing waits on the disk for ~0.1-0.3 s in all instead of ~0.6 s. Filling a whole slice
 * before hashing it waits longer, so pieces are hashed as they come. Elsewhere (jsdom, engines
 * without byte streams) the slices are read with `arrayBuffer()`, one read ahead of the hashing.
 */
export async function md5OfBlob(
  blob: Blob,
  onProgress?: Md5Progress,
  isCancelled?: () => boolean,
): Promise<string> {
  const hasher = await createMD5();
  hasher.init();
  const reader = blob.size > 0 ? byobReader(blob) : undefined;
  if (reader) await hashByteStream(reader, blob.size, hasher, onProgress, isCancelled);
  else await hashSlices(blob, hasher, onProgress, isCancelled);
  return hasher.digest('hex');
}

function byobReader(blob: Blob): ReadableStreamBYOBReader | undefined {
  if (typeof blob.stream !== 'function') return undefined;
  const stream = blob.stream();
  try {
    return stream.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream: let it go and read slices instead.
    void stream.cancel().catch(() => undefined);
    return undefined;
  }
}

async function hashByteStream(
  reader: ReadableStreamBYOBReader,
  total: number,
  hasher: Hasher,
  onProgress?: Md5Progress,
  isCancelled?: () => boolean,
): Promise<void> {
  // A read hands the buffer over to the stream and gives it back (as a new ArrayBuffer object
  // over the same memory) filled with whatever had arrived, so one buffer serves the whole file.
  let buffer = new ArrayBuffer(Math.min(total, md5SliceBytes));
  let done = 0;
  let sliceEnd = Math.min(total, md5SliceBytes);
  try {
    while (done < total) {
      const offset = done % md5SliceBytes;
      const { value, done: ended } = await reader.read(
        new Uint8Array(buffer, offset, sliceEnd - done),
      );
      if (!value) throw new Error('the file could not be read');
      buffer = value.buffer;
      if (ended) throw new Error(`the file ended after ${done} of ${total} bytes`);
      hasher.update(value);
      done += value.byteLength;
      if (done === sliceEnd) {
        if (isCancelled?.()) throw new Error('cancelled');
        onProgress?.(done, total);
        sliceEnd = Math.min(total, done + md5SliceBytes);
      }
    }
  } finally {
    // Releases the underlying read; a no-op once the stream is drained.
    void reader.cancel().catch(() => undefined);
  }
}

async function hashSlices(
  blob: Blob,
  hasher: Hasher,
  onProgress?: Md5Progress,
  isCancelled?: () => boolean,
): Promise<void> {
  const total = blob.size;
  const read = (from: number) =>
    blob.slice(from, Math.min(total, from + md5SliceBytes)).arrayBuffer();
  let next: Promise<ArrayBuffer> | undefined = total > 0 ? read(0) : undefined;
  let done = 0;
  while (next) {
    const buffer: ArrayBuffer = await next;
    if (isCancelled?.()) throw new Error('cancelled');
    done += buffer.byteLength;
    next = done < total ? read(done) : undefined;
    hasher.update(new Uint8Array(buffer));
    onProgress?.(done, total);
  }
}
