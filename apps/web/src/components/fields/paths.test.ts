import { describe, expect, it } from 'vitest';
import { fileNameOf, moveItem, pathList } from './paths';
import { assignKeys } from './stable-keys';

describe('fileNameOf', () => {
  it('is the part after the last "/"', () => {
    expect(fileNameOf('/data/file/ab/report.pdf')).toBe('report.pdf');
    expect(fileNameOf('https://cdn.example/x/y/cat.png?v=3#top')).toBe('cat.png');
    expect(fileNameOf('plain.txt')).toBe('plain.txt');
    expect(fileNameOf('/data/%E6%8A%A5%E5%91%8A.pdf')).toBe('报告.pdf');
    expect(fileNameOf('/bad/%E6%8A.pdf')).toBe('%E6%8A.pdf');
  });
});

describe('pathList and moveItem', () => {
  it('drops empty entries', () => {
    expect(pathList(undefined)).toEqual([]);
    expect(pathList(['', '/a', ''])).toEqual(['/a']);
  });

  it('moves one item to where it was dropped', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a'], 3, 0)).toEqual(['a']);
  });
});

describe('assignKeys', () => {
  it('keeps each path on its key, also for repeated paths, and keys new ones', () => {
    let n = 0;
    const fresh = () => `k${++n}`;
    const first = assignKeys([], ['/a', '/b', '/a'], fresh);
    expect(first).toEqual([
      { path: '/a', key: 'k1' },
      { path: '/b', key: 'k2' },
      { path: '/a', key: 'k3' },
    ]);
    const next = assignKeys(first, ['/b', '/a', '/c'], fresh);
    expect(next).toEqual([
      { path: '/b', key: 'k2' },
      { path: '/a', key: 'k1' },
      { path: '/c', key: 'k4' },
    ]);
  });
});
