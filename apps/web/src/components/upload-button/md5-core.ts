import { createMD5 } from 'hash-wasm';

/** Bytes read per step: big enough to keep WASM busy, small enough that memory stays flat. */
export const md5SliceBytes = 4 * 1024 * 1024;

export type Md5Progress = (done: number, total: number) => void;

/**
 * MD5 of a blob read slice by slice. The next slice is read while the current one is hashed,
 * so disk and CPU overlap; at most two slices are held at once whatever the file size.
 */
export async function md5OfBlob(
  blob: Blob,
  onProgress?: Md5Progress,
  isCancelled?: () => boolean,
): Promise<string> {
  const hasher = await createMD5();
  hasher.init();
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
  return hasher.digest('hex');
}
