import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  sortChoices,
  sortValue,
  withDates,
  withSort,
  withTypes,
} from './list-view';

describe('the list’s order (issue 17)', () => {
  it('maps each sort choice to the fields asked of the server, newest first to none', () => {
    expect(withSort({}, 'name-asc')).toEqual({ sort: 'name', order: 'asc' });
    expect(withSort({}, 'name-desc')).toEqual({ sort: 'name', order: 'desc' });
    expect(withSort({}, 'size-desc')).toEqual({ sort: 'size', order: 'desc' });
    expect(withSort({}, 'size-asc')).toEqual({ sort: 'size', order: 'asc' });
    expect(withSort({}, 'date-asc')).toEqual({ sort: 'date', order: 'asc' });
    // Newest first is the plain list again: no sort field at all, the filters kept.
    expect(withSort({ sort: 'size', order: 'asc', types: ['png'] }, 'date-desc')).toEqual({
      types: ['png'],
    });
  });

  it('shows the choice a view stands for, each choice once', () => {
    for (const choice of sortChoices)
      expect(sortValue(withSort({}, choice.value))).toBe(choice.value);
    expect(sortValue({})).toBe('date-desc');
    expect(sortValue({ sort: 'name' })).toBe('name-asc');
    expect(sortValue({ sort: 'size' })).toBe('size-desc');
    expect(new Set(sortChoices.map((c) => c.value)).size).toBe(sortChoices.length);
  });
});

describe('the list’s filters (issue 17)', () => {
  it('narrows to the chosen types, in the order chosen; none lifts the filter', () => {
    expect(withTypes({ sort: 'name' }, ['png'])).toEqual({ sort: 'name', types: ['png'] });
    expect(withTypes({ types: ['png'] }, ['png', 'jpg'])).toEqual({ types: ['png', 'jpg'] });
    expect(withTypes({ types: ['png'], sort: 'size' }, [])).toEqual({ sort: 'size' });
  });

  it('takes whole days of upload date: from the first day’s start to the last day’s end', () => {
    const view = withDates(
      { types: ['png'] },
      new Date(2026, 2, 4, 15, 30),
      new Date(2026, 2, 5, 9),
    );
    expect(view).toEqual({
      types: ['png'],
      from: new Date(2026, 2, 4).getTime(),
      to: new Date(2026, 2, 6).getTime() - 1,
    });
    expect(withDates(view, undefined, new Date(2026, 2, 5))).toEqual({
      types: ['png'],
      to: new Date(2026, 2, 6).getTime() - 1,
    });
    expect(withDates(view, undefined, undefined)).toEqual({ types: ['png'] });
  });

  it('counts the filters that are on for the Filters button’s badge', () => {
    expect(activeFilterCount({}, false)).toBe(0);
    expect(activeFilterCount({ sort: 'name', order: 'asc' }, true)).toBe(2);
    expect(activeFilterCount({ types: ['png'], from: 1 }, false)).toBe(2);
    expect(activeFilterCount({ types: [], to: 5 }, false)).toBe(1);
    expect(activeFilterCount(withDates({ types: ['png'] }, new Date(), new Date()), false)).toBe(2);
  });
});
