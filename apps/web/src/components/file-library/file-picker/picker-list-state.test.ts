import { describe, expect, it } from 'vitest';
import {
  currentSelection,
  initialPickerList,
  pickerListReducer,
  type PickerListAction,
  type PickerListState,
} from './picker-list-state';

const run = (...actions: PickerListAction<string>[]): PickerListState<string> =>
  actions.reduce(pickerListReducer<string>, initialPickerList<string>());

describe('the picker’s list state (SPEC 4.4, issue 17)', () => {
  it('opens on page 1 of the root category, all files, newest first, nothing checked', () => {
    const state = run();
    expect(state).toMatchObject({ categoryId: 0, page: 1, keywords: '', unused: false, view: {} });
    expect(currentSelection(state)).toEqual([]);
  });

  it('keeps the selection across pages, searches, filters and the order', () => {
    const state = run(
      { type: 'select', records: ['f12'] },
      { type: 'page', page: 2 },
      { type: 'select', records: ['f12', 'b'] },
      { type: 'search', words: 'F1' },
      { type: 'unused', on: true },
      { type: 'view', view: { sort: 'name', order: 'asc' } },
      { type: 'page', page: 3 },
    );
    expect(currentSelection(state)).toEqual(['f12', 'b']);
  });

  it('starts from page 1 on new search words (trimmed), the unused filter, a view or a category', () => {
    expect(run({ type: 'page', page: 4 }, { type: 'search', words: '  F1 ' })).toMatchObject({
      page: 1,
      keywords: 'F1',
    });
    expect(run({ type: 'page', page: 4 }, { type: 'unused', on: true })).toMatchObject({
      page: 1,
      unused: true,
    });
    expect(
      run({ type: 'page', page: 4 }, { type: 'view', view: { types: ['png'] } }),
    ).toMatchObject({ page: 1, view: { types: ['png'] } });
    expect(run({ type: 'page', page: 4 }, { type: 'category', id: 102 })).toMatchObject({
      page: 1,
      categoryId: 102,
    });
    // Words, filters and view stay when the page turns.
    expect(
      run({ type: 'search', words: 'a' }, { type: 'unused', on: true }, { type: 'page', page: 2 }),
    ).toMatchObject({ page: 2, keywords: 'a', unused: true });
  });

  it('a reload (upload, move, delete, another category) clears the selection', () => {
    const reloaded = run({ type: 'select', records: ['a', 'b'] }, { type: 'reload' });
    expect(currentSelection(reloaded)).toEqual([]);
    // What is checked after the reload belongs to the new load.
    expect(
      currentSelection(pickerListReducer(reloaded, { type: 'select', records: ['c'] })),
    ).toEqual(['c']);
  });
});
