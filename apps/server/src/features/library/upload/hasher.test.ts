import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Hasher } from './hasher';

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');
const MiB = 1024 * 1024;

describe.each([
  ['portable (hash-wasm)', true],
  ["one instance (node's)", false],
])('Hasher, %s', (_name, portable) => {
  let hasher: Hasher;
  afterEach(async () => {
    await hasher.close();
  });

  it('folds pieces sent one after another without waiting, and digests the states', async () => {
    hasher = new Hasher(portable);
    const data = randomBytes(3 * MiB + 17);
    const cuts = [0, MiB, 2 * MiB, data.length];
    // Every fold is sent before the one before it is answered: the thread keeps the key's place.
    const folds = [];
    for (let i = 0; i + 1 < cuts.length; i += 1) {
      folds.push(hasher.fold('k', cuts[i] ?? 0, undefined, [data.subarray(cuts[i], cuts[i + 1])]));
    }
    const states = await Promise.all(folds.map((fold) => fold.state));
    expect(await hasher.digest(states.at(-1))).toBe(md5(data));
    // Each state is the hash of the bytes up to its fold.
    expect(await hasher.digest(states[0])).toBe(md5(data.subarray(0, MiB)));
  });

  it('refuses a fold that brings no state and does not start where its key stands', async () => {
    hasher = new Hasher(portable);
    const data = randomBytes(4096);
    await hasher.fold('gap', 0, undefined, [data.subarray(0, 1000)]).state;
    const gap = hasher.fold('gap', 2000, undefined, [data.subarray(2000)]);
    await expect(gap.state).rejects.toThrow(/no hash state for gap at byte 2000/);
    // The failed fold left the key unknown: even the right offset finds nothing now.
    await expect(hasher.fold('gap', 1000, undefined, [data.subarray(1000)]).state).rejects.toThrow(
      /no hash state/,
    );
    // A dropped key is forgotten too.
    await hasher.fold('dropped', 0, undefined, [data.subarray(0, 10)]).state;
    await hasher.drop('dropped');
    await expect(hasher.fold('dropped', 10, undefined, [data.subarray(10)]).state).rejects.toThrow(
      /no hash state/,
    );
  });

  it('copies the pieces unless told it may take their buffers, which then come back', async () => {
    hasher = new Hasher(portable);
    const data = randomBytes(MiB);
    const copy = Buffer.from(data);
    await hasher.fold('copied', 0, undefined, [data]).state;
    expect(data.equals(copy)).toBe(true);

    const lent = Buffer.from(copy);
    let giveBack: (buffers: ArrayBuffer[]) => void = () => undefined;
    const returned = new Promise<ArrayBuffer[]>((resolve) => {
      giveBack = resolve;
    });
    const fold = hasher.fold('lent', 0, undefined, [lent.subarray(10)], (b) => giveBack(b));
    expect(lent.length).toBe(0);
    const [buffer] = await returned;
    expect(buffer?.byteLength).toBe(copy.length);
    expect(Buffer.from(buffer ?? new ArrayBuffer(0)).equals(copy)).toBe(true);
    expect(await hasher.digest(await fold.state)).toBe(md5(copy.subarray(10)));
  });

  it('continues from a saved state under another key, as a new lane does', async () => {
    hasher = new Hasher(portable);
    const data = randomBytes(3 * MiB + 5);
    const first = await hasher.fold('n', 0, undefined, [data.subarray(0, MiB)]).state;
    expect(hasher.canLoad(first)).toBe(true);
    const second = await hasher.fold('m', MiB, first, [data.subarray(MiB, 2 * MiB)]).state;
    const third = await hasher.fold('m', 2 * MiB, undefined, [data.subarray(2 * MiB)]).state;
    expect(await hasher.digest(third)).toBe(md5(data));
    // The earlier state is still there to continue from.
    const again = await hasher.fold('o', MiB, first, [data.subarray(MiB, 2 * MiB)]).state;
    expect(await hasher.digest(again)).toBe(await hasher.digest(second));
  });

  it('digests no bytes', async () => {
    hasher = new Hasher(portable);
    expect(await hasher.digest(undefined)).toBe(md5(Buffer.alloc(0)));
  });
});

describe('Hasher states across processes', () => {
  it("continues hash-wasm's states in a fresh hasher, as another instance does", async () => {
    const data = randomBytes(2 * MiB);
    const one = new Hasher(true);
    const half = await one.fold('a', 0, undefined, [data.subarray(0, MiB)]).state;
    await one.close();
    const two = new Hasher(true);
    try {
      const whole = await two.fold('b', MiB, half, [data.subarray(MiB)]).state;
      expect(await two.digest(whole)).toBe(md5(data));
    } finally {
      await two.close();
    }
  });

  it("does not continue node's states in another process: it hashes the file again", async () => {
    const data = randomBytes(2 * MiB);
    const one = new Hasher(false);
    const other = new Hasher(false);
    try {
      const half = await one.fold('a', 0, undefined, [data.subarray(0, MiB)]).state;
      expect(other.canLoad(half)).toBe(false);
      expect(new Hasher(true).canLoad(half)).toBe(true);
      await expect(other.fold('b', MiB, half, [data.subarray(MiB)]).state).rejects.toThrow(
        /saved by another process/,
      );
    } finally {
      await one.close();
      await other.close();
    }
  });
});
