import { describe, expect, it } from 'vitest';
import { pathRange } from './file-listing.queries';

/** Whether `path` falls in the range, compared as the databases compare these paths (bytes). */
const inRange = (range: { from: string; to: string }, path: string) =>
  path >= range.from && path < range.to;

describe('pathRange', () => {
  it('holds a category and everything below it, and nothing else', () => {
    const range = pathRange('/1/23/');
    for (const below of ['/1/23/', '/1/23/4/', '/1/23/4/5/', '/1/23/999/'])
      expect(inRange(range, below), below).toBe(true);
    for (const other of [
      '/1/',
      '/1/2/',
      '/1/230/',
      '/1/24/',
      '/1/3/',
      '/10/23/',
      '/2/',
      '/1/22/9/',
    ])
      expect(inRange(range, other), other).toBe(false);
  });

  it('holds a top-level category without its numeric neighbours', () => {
    const range = pathRange('/9/');
    expect(inRange(range, '/9/12/')).toBe(true);
    expect(inRange(range, '/90/')).toBe(false);
    expect(inRange(range, '/8/')).toBe(false);
  });

  it('refuses what is not a category path', () => {
    for (const bad of ['', '/', '/1', '1/', '/a/', "/1/' or 1=1 --/", '/1//'])
      expect(() => pathRange(bad), bad).toThrow(/not a category path/);
  });
});
