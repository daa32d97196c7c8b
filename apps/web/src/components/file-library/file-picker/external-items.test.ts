import { describe, expect, it } from 'vitest';
import { parseSelectorItems } from './external-items';

describe('parseSelectorItems', () => {
  it('keeps items that have a path and fills the result fields', () => {
    expect(parseSelectorItems([{ path: '/u/a.mp4' }, { name: 'no path' }, 'x'], 'video')).toEqual([
      { category: 'video', filename: 'a.mp4', path: '/u/a.mp4', fullPath: '/u/a.mp4', type: 'mp4' },
    ]);
  });

  it('accepts a wrapped list and keeps given names and addresses', () => {
    const data = {
      items: [{ path: 'p/b.png', fullPath: 'https://cdn/p/b.png', filename: 'B', type: 'png' }],
    };
    expect(parseSelectorItems(data, 'image')).toEqual([
      {
        category: 'image',
        filename: 'B',
        path: 'p/b.png',
        fullPath: 'https://cdn/p/b.png',
        type: 'png',
      },
    ]);
  });

  it('ignores anything else', () => {
    expect(parseSelectorItems('hello', 'image')).toEqual([]);
    expect(parseSelectorItems(null, 'image')).toEqual([]);
  });
});
