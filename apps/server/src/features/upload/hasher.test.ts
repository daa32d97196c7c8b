import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Hasher } from './hasher';

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('Hasher', () => {
  let hasher: Hasher;
  afterEach(async () => {
    await hasher.close();
  });

  it('folds pieces into MD5 (state handed back) and SHA-256 (kept by key), in order', async () => {
    hasher = new Hasher();
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const cuts = [0, 1024 * 1024, 2 * 1024 * 1024, data.length];
    let state: string | null = null;
    for (let i = 0; i + 1 < cuts.length; i += 1) {
      state = await hasher.fold('k', cuts[i] ?? 0, state, [data.subarray(cuts[i], cuts[i + 1])]);
    }
    // The SHA-256 folds may still run behind the MD5 ones: the digest waits for them.
    expect(await hasher.digest('k', data.length, state)).toEqual({
      md5: md5(data),
      sha256: sha256(data),
    });
    // A digest drops the key.
    expect((await hasher.digest('k', data.length, state)).sha256).toBeUndefined();
  });

  it('continues an MD5 from a saved state in a fresh hasher, without the SHA-256', async () => {
    hasher = new Hasher();
    const data = randomBytes(2 * 1024 * 1024);
    const half = await hasher.fold('a', 0, null, [data.subarray(0, 1024 * 1024)]);
    await hasher.close();
    hasher = new Hasher();
    const whole = await hasher.fold('a', 1024 * 1024, half, [data.subarray(1024 * 1024)]);
    expect(await hasher.digest('a', data.length, whole)).toEqual({
      md5: md5(data),
      sha256: undefined,
    });
  });

  it('drops a SHA-256 whose next fold does not start where it stands', async () => {
    hasher = new Hasher();
    const data = randomBytes(4096);
    const state = await hasher.fold('gap', 0, null, [data.subarray(0, 1000)]);
    const next = await hasher.fold('gap', 2000, state, [data.subarray(2000)]);
    expect((await hasher.digest('gap', data.length, next)).sha256).toBeUndefined();
  });

  it('copies the pieces unless told it may take their buffers, which then come back', async () => {
    hasher = new Hasher();
    const data = randomBytes(1024 * 1024);
    const copy = Buffer.from(data);
    await hasher.fold('copied', 0, null, [data]);
    expect(data.equals(copy)).toBe(true);

    const lent = Buffer.from(copy);
    const returned = new Promise<ArrayBuffer[]>((resolve) => {
      void hasher.fold('lent', 0, null, [lent.subarray(10)], resolve);
    });
    expect(lent.length).toBe(0);
    const [buffer] = await returned;
    expect(buffer?.byteLength).toBe(copy.length);
    expect(Buffer.from(buffer ?? new ArrayBuffer(0)).equals(copy)).toBe(true);
    const digest = await hasher.digest('lent', copy.length - 10, null);
    expect(digest.sha256).toBe(sha256(copy.subarray(10)));
  });
});
