import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5OfBlob, md5SliceBytes } from './md5-core';

describe('md5OfBlob', () => {
  it('matches a one-shot MD5 across slice boundaries and reports progress to the end', async () => {
    const bytes = new Uint8Array(md5SliceBytes * 2 + 12345);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
    const progress: number[] = [];
    const hash = await md5OfBlob(new Blob([bytes]), (done) => progress.push(done));
    expect(hash).toBe(createHash('md5').update(bytes).digest('hex'));
    expect(progress).toEqual([md5SliceBytes, md5SliceBytes * 2, bytes.length]);
  });

  it('hashes an empty file', async () => {
    expect(await md5OfBlob(new Blob([]))).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });
});
