import type { FileListView } from '@/components/file-library/api/file-list';

/**
 * What the gallery lists and what is checked in it, as plain data (SPEC 4.4, issue 17): kept free
 * of React and antd so each rule is tested alone; `usePickerList` runs it.
 */
export interface PickerListState<T> {
  categoryId: number;
  page: number;
  keywords: string;
  /** Only files nothing uses (issue 17). */
  unused: boolean;
  view: FileListView;
  /**
   * Which load of the list the selection belongs to: a reload (upload, move, delete, another
   * category) clears it (SPEC 4.4); turning pages and searching keep it.
   */
  generation: number;
  selection: { generation: number; records: readonly T[] };
}

export type PickerListAction<T> =
  | { type: 'page'; page: number }
  | { type: 'category'; id: number }
  | { type: 'search'; words: string }
  | { type: 'unused'; on: boolean }
  | { type: 'view'; view: FileListView }
  | { type: 'select'; records: readonly T[] }
  | { type: 'reload' };

export function initialPickerList<T>(): PickerListState<T> {
  return {
    categoryId: 0,
    page: 1,
    keywords: '',
    unused: false,
    view: {},
    generation: 0,
    selection: { generation: 0, records: [] },
  };
}

export function pickerListReducer<T>(
  state: PickerListState<T>,
  action: PickerListAction<T>,
): PickerListState<T> {
  switch (action.type) {
    case 'page':
      return { ...state, page: action.page };
    // A new category, search words, filter or order starts from page 1.
    case 'category':
      return { ...state, categoryId: action.id, page: 1 };
    case 'search':
      return { ...state, keywords: action.words.trim(), page: 1 };
    case 'unused':
      return { ...state, unused: action.on, page: 1 };
    case 'view':
      return { ...state, view: action.view, page: 1 };
    case 'select':
      return { ...state, selection: { generation: state.generation, records: action.records } };
    case 'reload':
      return { ...state, generation: state.generation + 1 };
  }
}

/** The selection of the current load: empty once the list has reloaded since it was made. */
export function currentSelection<T>(state: PickerListState<T>): readonly T[] {
  return state.selection.generation === state.generation ? state.selection.records : [];
}
