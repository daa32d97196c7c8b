import { describe, expect, it } from 'vitest';
import { LibraryAnswers, libraryKey } from './library-answers';

/** A computation that counts its calls and answers `value`. */
function counted<V>(value: V) {
  const compute = async () => {
    compute.calls += 1;
    return value;
  };
  compute.calls = 0;
  return compute;
}

const admin = libraryKey({ owner: { type: 'admin', id: 0 }, library: 'file' });
const member = libraryKey({ owner: { type: 'member', id: 7 }, library: 'file' });

describe('LibraryAnswers (issue 32)', () => {
  it('answers a second read at the same generation from memory', async () => {
    const answers = new LibraryAnswers();
    const page = counted({ records: [1, 2] });
    const first = await answers.get(admin, 3, 'list:1', page);
    const second = await answers.get(admin, 3, 'list:1', page);
    expect(second).toBe(first);
    expect(page.calls).toBe(1);
    expect(answers.counts).toEqual({ hits: 1, misses: 1 });
  });

  it('computes again once the generation moved on, and keeps the new answer', async () => {
    const answers = new LibraryAnswers();
    await answers.get(admin, 3, 'list:1', counted('before'));
    const after = counted('after');
    expect(await answers.get(admin, 4, 'list:1', after)).toBe('after');
    expect(await answers.get(admin, 4, 'list:1', after)).toBe('after');
    expect(after.calls).toBe(1);
  });

  it('does not let a slow read of an older generation replace a newer answer', async () => {
    const answers = new LibraryAnswers();
    let finishOld: (value: string) => void = () => undefined;
    const old = answers.get(
      admin,
      3,
      'list:1',
      () => new Promise<string>((resolve) => (finishOld = resolve)),
    );
    await answers.get(admin, 4, 'list:1', counted('new'));
    finishOld('old');
    expect(await old).toBe('old');
    const again = counted('computed again');
    expect(await answers.get(admin, 4, 'list:1', again)).toBe('new');
    expect(again.calls).toBe(0);
  });

  it('keeps libraries and keys apart', async () => {
    const answers = new LibraryAnswers();
    await answers.get(admin, 1, 'list:1', counted('admin page 1'));
    expect(await answers.get(member, 1, 'list:1', counted('member page 1'))).toBe('member page 1');
    expect(await answers.get(admin, 1, 'list:2', counted('admin page 2'))).toBe('admin page 2');
    expect(await answers.get(admin, 1, 'list:1', counted('again'))).toBe('admin page 1');
  });

  it('keeps nothing for a library without a generation', async () => {
    const answers = new LibraryAnswers();
    const page = counted('page');
    await answers.get(admin, undefined, 'list:1', page);
    await answers.get(admin, undefined, 'list:1', page);
    expect(page.calls).toBe(2);
    expect(answers.size).toBe(0);
  });

  it('holds at most its bound, letting the least recently used go first', async () => {
    const answers = new LibraryAnswers(3);
    for (const key of ['a', 'b', 'c']) await answers.get(admin, 1, key, counted(key));
    // 'a' used again: 'b' is now the least recently used.
    await answers.get(admin, 1, 'a', counted('a again'));
    await answers.get(admin, 1, 'd', counted('d'));
    expect(answers.size).toBe(3);
    const b = counted('b again');
    expect(await answers.get(admin, 1, 'b', b)).toBe('b again');
    expect(b.calls).toBe(1);
    expect(await answers.get(admin, 1, 'a', counted('a third'))).toBe('a');
    expect(answers.size).toBe(3);
  });

  it('counts an answer by its weight: a heavy page pushes out as many light ones as it weighs', async () => {
    const answers = new LibraryAnswers(12);
    for (const key of ['category:1', 'category:2', 'category:3', 'subtree:1'])
      await answers.get(admin, 1, key, counted(key));
    const weighsSix = () => 6;
    await answers.get(admin, 1, 'list:a', counted('list:a'), weighsSix);
    // 4 + 6 = 10 of 12: all held.
    expect(answers.size).toBe(5);
    await answers.get(admin, 1, 'list:b', counted('list:b'), weighsSix);
    // 6 more: the four light ones go, the first page stays.
    expect(answers.size).toBe(2);
    expect(await answers.get(admin, 1, 'list:a', counted('list:a again'))).toBe('list:a');
    expect(await answers.get(admin, 1, 'category:1', counted('category:1 again'))).toBe(
      'category:1 again',
    );
    // Heavier than the whole bound: answered, never kept.
    await answers.get(admin, 1, 'list:huge', counted('list:huge'), () => 13);
    expect(await answers.get(admin, 1, 'list:huge', counted('list:huge again'))).toBe(
      'list:huge again',
    );
  });

  it('does not keep a failed computation', async () => {
    const answers = new LibraryAnswers();
    await expect(
      answers.get(admin, 1, 'category:9', () => Promise.reject(new Error('no such category'))),
    ).rejects.toThrow('no such category');
    expect(answers.size).toBe(0);
  });
});
