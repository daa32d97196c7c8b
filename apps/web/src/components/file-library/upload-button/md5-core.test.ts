import { Blob as NodeBlob } from 'node:buffer';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5OfBlob, md5SliceBytes } from './md5-core';

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

function patterned(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 13)) & 0xff;
  return bytes;
}

/** A blob whose stream is a byte stream handing out the bytes in uneven pieces. */
function pieceByPieceBlob(bytes: Uint8Array, pieces: number[]): Blob {
  let at = 0;
  let turn = 0;
  const stream = () =>
    new ReadableStream({
      type: 'bytes',
      pull(controller) {
        if (at >= bytes.length) {
          // A byte stream settles a waiting BYOB read only once the request is answered.
          controller.close();
          controller.byobRequest?.respond(0);
          return;
        }
        const size = pieces[turn++ % pieces.length] ?? 1;
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      },
    });
  return { size: bytes.length, stream } as unknown as Blob;
}

describe('md5OfBlob', () => {
  it('matches a one-shot MD5 across slice boundaries and reports progress to the end', async () => {
    const bytes = patterned(md5SliceBytes * 2 + 12345);
    const progress: number[] = [];
    const hash = await md5OfBlob(new Blob([bytes]), (done) => progress.push(done));
    expect(hash).toBe(md5(bytes));
    expect(progress).toEqual([md5SliceBytes, md5SliceBytes * 2, bytes.length]);
  });

  it('hashes an empty file', async () => {
    expect(await md5OfBlob(new Blob([]))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(await md5OfBlob(new NodeBlob([]) as unknown as Blob)).toBe(
      'd41d8cd98f00b204e9800998ecf8427e',
    );
  });

  it('reads a byte-stream blob (as browsers hand out) to the same digest and progress', async () => {
    const bytes = patterned(md5SliceBytes * 3 + 777);
    const progress: Array<[number, number]> = [];
    const blob = new NodeBlob([bytes]) as unknown as Blob;
    const hash = await md5OfBlob(blob, (done, total) => progress.push([done, total]));
    expect(hash).toBe(md5(bytes));
    expect(progress).toEqual([
      [md5SliceBytes, bytes.length],
      [md5SliceBytes * 2, bytes.length],
      [md5SliceBytes * 3, bytes.length],
      [bytes.length, bytes.length],
    ]);
  });

  it('keeps slice boundaries when the stream hands out uneven pieces', async () => {
    const bytes = patterned(md5SliceBytes * 2 + 5);
    const blob = pieceByPieceBlob(bytes, [1_000_003, 65_536, 3, 2_500_000]);
    const progress: number[] = [];
    expect(await md5OfBlob(blob, (done) => progress.push(done))).toBe(md5(bytes));
    expect(progress).toEqual([md5SliceBytes, md5SliceBytes * 2, bytes.length]);
  });

  it('hashes a file smaller than one slice in one step', async () => {
    const bytes = patterned(1000);
    const progress: number[] = [];
    const blob = new NodeBlob([bytes]) as unknown as Blob;
    expect(await md5OfBlob(blob, (done) => progress.push(done))).toBe(md5(bytes));
    expect(progress).toEqual([1000]);
  });

  it('stops at the next slice once cancelled', async () => {
    const bytes = patterned(md5SliceBytes * 3);
    const progress: number[] = [];
    const blob = new NodeBlob([bytes]) as unknown as Blob;
    await expect(
      md5OfBlob(
        blob,
        (done) => progress.push(done),
        () => progress.length > 0,
      ),
    ).rejects.toThrow('cancelled');
    expect(progress).toEqual([md5SliceBytes]);
  });

  it('fails rather than hashing part of a file that came up short', async () => {
    const bytes = patterned(100_000);
    const blob = pieceByPieceBlob(bytes, [40_000]);
    Object.defineProperty(blob, 'size', { value: 150_000 });
    await expect(md5OfBlob(blob)).rejects.toThrow('ended after 100000 of 150000 bytes');
  });
});
