import { describe, expect, it } from 'vitest';
import {
  confirmProblem,
  pageCheckState,
  pickedFromPath,
  pickedFromRecords,
  selectAllOf,
  selectionOrder,
  showReverseOrder,
  toggleSelection,
  unselectAllOf,
} from './selection';

const same = (a: number, b: number) => a === b;

describe('select all on a page', () => {
  it('adds the page after what other pages hold, once each, in page order', () => {
    expect(selectAllOf([9, 2], [1, 2, 3], 10, same)).toEqual({ ok: true, selected: [9, 2, 1, 3] });
  });

  it('refuses when the page does not fit under max, changing nothing', () => {
    expect(selectAllOf([9], [1, 2, 3], 3, same)).toEqual({ ok: false, reason: 'max' });
    expect(selectAllOf([1, 2], [1, 2, 3], 3, same)).toEqual({ ok: true, selected: [1, 2, 3] });
  });

  it('unselects only the page, and tells all, some or none', () => {
    expect(unselectAllOf([9, 1, 2], [1, 2, 3], same)).toEqual([9]);
    expect(pageCheckState([9, 1, 2, 3], [1, 2, 3], same)).toBe('all');
    expect(pageCheckState([9, 2], [1, 2, 3], same)).toBe('some');
    expect(pageCheckState([9], [1, 2, 3], same)).toBe('none');
    expect(pageCheckState([9], [], same)).toBe('none');
  });
});

describe('toggleSelection', () => {
  it('adds an item while fewer than max are selected, keeping click order', () => {
    const first = toggleSelection<number>([], 5, 3, same);
    expect(first).toEqual({ ok: true, selected: [5] });
    expect(toggleSelection([5], 2, 3, same)).toEqual({ ok: true, selected: [5, 2] });
  });

  it('with max 1 replaces the other selection', () => {
    expect(toggleSelection([7], 9, 1, same)).toEqual({ ok: true, selected: [9] });
  });

  it('refuses a click beyond max when max > 1', () => {
    expect(toggleSelection([1, 2, 3], 4, 3, same)).toEqual({ ok: false, reason: 'max' });
  });

  it('unselects a selected item, even when full', () => {
    expect(toggleSelection([1, 2, 3], 2, 3, same)).toEqual({ ok: true, selected: [1, 3] });
  });
});

describe('selectionOrder', () => {
  it('numbers the checked in click order, across pages, or the reverse', () => {
    expect([...selectionOrder([12, 2, 10], 5, false)]).toEqual([
      [12, 1],
      [2, 2],
      [10, 3],
    ]);
    expect([...selectionOrder([12, 2, 10], 5, true)]).toEqual([
      [12, 3],
      [2, 2],
      [10, 1],
    ]);
  });

  it('numbers nothing with max 1', () => {
    expect(selectionOrder([4], 1, false).size).toBe(0);
  });
});

describe('confirmProblem', () => {
  it('asks for input on the Custom Link tab when the path is blank', () => {
    expect(confirmProblem('input', { path: '  ', selected: 0, min: 1, max: 1 })).toEqual({
      key: 'files.pleaseInput',
    });
    expect(confirmProblem('input', { path: '/a.png', selected: 0, min: 1, max: 1 })).toBeNull();
  });

  it('needs at least min and at most max on the gallery tab', () => {
    expect(confirmProblem('list', { path: '', selected: 1, min: 2, max: 5 })).toEqual({
      key: 'files.selectAtLeast',
      n: 2,
    });
    expect(confirmProblem('list', { path: '', selected: 6, min: 1, max: 5 })).toEqual({
      key: 'files.selectAtMost',
      n: 5,
    });
    expect(confirmProblem('list', { path: '', selected: 3, min: 1, max: 5 })).toBeNull();
  });
});

describe('results', () => {
  const records = [
    {
      id: 1,
      category: 'image',
      filename: 'a.png',
      path: 'p/a.png',
      fullPath: 'http://x/p/a.png',
      type: 'png',
      size: 3,
    },
    {
      id: 2,
      category: 'image',
      filename: 'b.png',
      path: 'p/b.png',
      fullPath: 'http://x/p/b.png',
      type: 'png',
      size: 4,
    },
  ];

  it('hands back category, filename, path, fullPath and type in click order or reversed', () => {
    expect(pickedFromRecords(records, false)).toEqual([
      {
        category: 'image',
        filename: 'a.png',
        path: 'p/a.png',
        fullPath: 'http://x/p/a.png',
        type: 'png',
      },
      {
        category: 'image',
        filename: 'b.png',
        path: 'p/b.png',
        fullPath: 'http://x/p/b.png',
        type: 'png',
      },
    ]);
    expect(pickedFromRecords(records, true).map((r) => r.path)).toEqual(['p/b.png', 'p/a.png']);
  });

  it('gives a typed path an empty name and type, with fullPath equal to path', () => {
    expect(pickedFromPath(' /x/y.pdf ')).toEqual([
      { name: '', path: '/x/y.pdf', fullPath: '/x/y.pdf', type: '' },
    ]);
  });

  it('offers Reverse Select Order only when max > 1 and more than one is checked', () => {
    expect(showReverseOrder(1, 1)).toBe(false);
    expect(showReverseOrder(3, 1)).toBe(false);
    expect(showReverseOrder(3, 2)).toBe(true);
  });
});
