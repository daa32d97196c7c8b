import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Hasher } from './hasher';

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const MiB = 1024 * 1024;

describe('Hasher', () => {
  let hasher: Hasher;
  afterEach(async () => {
    await hasher.close();
  });

  it('folds pieces sent one after another without waiting, and digests the states', async () => {
    hasher = new Hasher();
    const data = randomBytes(3 * MiB + 17);
    const cuts = [0, MiB, 2 * MiB, data.length];
    // Every fold is sent before the one before it is answered: the threads keep the key's place.
    const folds = [];
    for (let i = 0; i + 1 < cuts.length; i += 1) {
      folds.push(hasher.fold('k', cuts[i] ?? 0, undefined, [data.subarray(cuts[i], cuts[i + 1])]));
    }
    const states = await Promise.all(folds.map((fold) => fold.states));
    expect(await hasher.digest(states.at(-1))).toEqual({ md5: md5(data), sha256: sha256(data) });
    // Each state is the hash of the bytes up to its fold.
    expect(await hasher.digest(states[0])).toEqual({
      md5: md5(data.subarray(0, MiB)),
      sha256: sha256(data.subarray(0, MiB)),
    });
  });

  it('continues both hashes from saved states in a fresh hasher, as another instance does', async () => {
    hasher = new Hasher();
    const data = randomBytes(2 * MiB);
    const half = await hasher.fold('a', 0, undefined, [data.subarray(0, MiB)]).states;
    await hasher.close();
    hasher = new Hasher();
    const whole = await hasher.fold('b', MiB, half, [data.subarray(MiB)]).states;
    expect(await hasher.digest(whole)).toEqual({ md5: md5(data), sha256: sha256(data) });
  });

  it('refuses a fold that brings no state and does not start where its key stands', async () => {
    hasher = new Hasher();
    const data = randomBytes(4096);
    await hasher.fold('gap', 0, undefined, [data.subarray(0, 1000)]).states;
    const gap = hasher.fold('gap', 2000, undefined, [data.subarray(2000)]);
    await expect(gap.states).rejects.toThrow(/no hash state for gap at byte 2000/);
    await gap.md5Done;
    // The failed fold left the key unknown: even the right offset finds nothing now.
    await expect(hasher.fold('gap', 1000, undefined, [data.subarray(1000)]).states).rejects.toThrow(
      /no hash state/,
    );
    // A dropped key is forgotten too.
    await hasher.fold('dropped', 0, undefined, [data.subarray(0, 10)]).states;
    await hasher.drop('dropped');
    await expect(hasher.fold('dropped', 10, undefined, [data.subarray(10)]).states).rejects.toThrow(
      /no hash state/,
    );
  });

  it('copies the pieces unless told it may take their buffers, which then come back', async () => {
    hasher = new Hasher();
    const data = randomBytes(MiB);
    const copy = Buffer.from(data);
    await hasher.fold('copied', 0, undefined, [data]).states;
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
    const states = await fold.states;
    expect((await hasher.digest(states)).sha256).toBe(sha256(copy.subarray(10)));
  });

  it("with node's SHA-256 (one instance), continues only states this process saved", async () => {
    hasher = new Hasher(false);
    const data = randomBytes(3 * MiB + 5);
    const first = await hasher.fold('n', 0, undefined, [data.subarray(0, MiB)]).states;
    expect(hasher.canLoad(first)).toBe(true);
    // Continued from the saved state under another key, as a new lane of the same process does.
    const second = await hasher.fold('m', MiB, first, [data.subarray(MiB, 2 * MiB)]).states;
    const third = await hasher.fold('m', 2 * MiB, undefined, [data.subarray(2 * MiB)]).states;
    expect(await hasher.digest(third)).toEqual({ md5: md5(data), sha256: sha256(data) });
    // The earlier state is still there to continue from.
    const again = await hasher.fold('o', MiB, first, [data.subarray(MiB, 2 * MiB)]).states;
    expect(await hasher.digest(again)).toEqual(await hasher.digest(second));

    // Another process (a restart) cannot: it hashes the file again instead.
    const other = new Hasher(false);
    try {
      expect(other.canLoad(third)).toBe(false);
      await expect(
        other.fold('n', 2 * MiB, second, [data.subarray(2 * MiB)]).states,
      ).rejects.toThrow(/saved by another process/);
      expect(new Hasher(true).canLoad(third)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('digests no bytes', async () => {
    hasher = new Hasher();
    expect(await hasher.digest(undefined)).toEqual({
      md5: md5(Buffer.alloc(0)),
      sha256: sha256(Buffer.alloc(0)),
    });
  });
});
