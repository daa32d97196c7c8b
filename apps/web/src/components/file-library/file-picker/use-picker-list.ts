import { useReducer } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { fileKeys } from '@/components/file-library/api/file-manager-client';
import { useFileList, type FileListView } from '@/components/file-library/api/file-list';
import { invalidateFresh } from '@/lib/query-client';
import type { FileRecord } from './file-record';
import { pageToShow } from './paging';
import {
  currentSelection,
  initialPickerList,
  pickerListReducer,
  type PickerListState,
} from './picker-list-state';

/**
 * The list the gallery shows and what is checked in it: category, page, search, the unused
 * filter and the view (sort, types, dates), the answer, and the selection of the current load
 * (the rules are `pickerListReducer`'s).
 */
export function usePickerList(url: string, category: string) {
  const client = useQueryClient();
  const [state, dispatch] = useReducer(
    pickerListReducer<FileRecord>,
    undefined,
    (): PickerListState<FileRecord> => initialPickerList<FileRecord>(),
  );
  const { categoryId, page, keywords, unused, view } = state;
  const list = useFileList(url, category, { categoryId, page, keywords, unused, view }, true);

  // A page that came back empty past the end (its files moved or deleted) shows the last page.
  const correction = list.isPlaceholderData ? undefined : pageToShow(list.data);
  // Set while rendering (React's way to adjust state to what a render found), not in an effect.
  if (correction !== undefined && correction !== page) dispatch({ type: 'page', page: correction });

  return {
    categoryId,
    page,
    keywords,
    unused,
    view,
    list,
    records: list.data?.records ?? [],
    selected: currentSelection(state),
    setPage: (next: number) => dispatch({ type: 'page', page: next }),
    /** Replaces the selection of the current load. */
    select: (records: readonly FileRecord[]) => dispatch({ type: 'select', records }),
    /** Reloads the list (every page of this library) and clears the selection (SPEC 4.4). */
    reload: () => {
      dispatch({ type: 'reload' });
      return invalidateFresh(client, { queryKey: fileKeys.lists(url, category) });
    },
    chooseCategory: (id: number) => dispatch({ type: 'category', id }),
    search: (words: string) => dispatch({ type: 'search', words }),
    setUnused: (on: boolean) => dispatch({ type: 'unused', on }),
    setView: (next: FileListView) => dispatch({ type: 'view', view: next }),
  };
}

export type PickerList = ReturnType<typeof usePickerList>;
