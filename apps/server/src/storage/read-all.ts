import type { Readable } from 'node:stream';

/**
 * The whole of a stream as one buffer. With a `limit`: undefined (the stream destroyed) once it
 * passes that many bytes, so a blob read into memory cannot grow without bound.
 */
export function readAll(stream: Readable): Promise<Buffer>;
export function readAll(stream: Readable, limit: number): Promise<Buffer | undefined>;
export async function readAll(
  stream: Readable,
  limit = Number.POSITIVE_INFINITY,
): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const part = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += part.length;
    if (size > limit) {
      stream.destroy();
      return undefined;
    }
    parts.push(part);
  }
  return Buffer.concat(parts);
}
