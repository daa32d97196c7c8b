import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { fileKeys } from '@/components/file-library/api/file-manager-client';
import { useFileList, type FileListView } from '@/components/file-library/api/file-list';
import type { FileRecord } from './file-record';
import { pageToShow } from './paging';

interface Selection {
  /**
   * Which load of the list the selection belongs to: a reload (upload, move, delete, another
   * category) clears it (SPEC 4.4); turning pages and searching keep it.
   */
  generation: number;
  records: FileRecord[];
}

/**
 * The list the gallery shows and what is checked in it: category, page, search, the unused
 * filter and the view (sort, types, dates), the answer, and the selection of the current load.
 */
export function usePickerList(url: string, category: string) {
  const client = useQueryClient();
  const [categoryId, setCategoryId] = useState(0);
  const [page, setPage] = useState(1);
  const [keywords, setKeywords] = useState('');
  const [unused, setUnusedOnly] = useState(false);
  const [view, setViewState] = useState<FileListView>({});
  const [generation, setGeneration] = useState(0);
  const [selection, setSelection] = useState<Selection>({ generation: 0, records: [] });
  const list = useFileList(url, category, { categoryId, page, keywords, unused, view }, true);

  // A page that came back empty past the end (its files moved or deleted) shows the last page.
  const correction = list.isPlaceholderData ? undefined : pageToShow(list.data);
  // Set while rendering (React's way to adjust state to what a render found), not in an effect.
  if (correction !== undefined && correction !== page) setPage(correction);

  const selected = selection.generation === generation ? selection.records : [];

  return {
    categoryId,
    page,
    keywords,
    unused,
    view,
    list,
    records: list.data?.records ?? [],
    selected,
    setPage,
    /** Replaces the selection of the current load. */
    select: (records: FileRecord[]) => setSelection({ generation, records }),
    /** Reloads the list (every page of this library) and clears the selection (SPEC 4.4). */
    reload: () => {
      setGeneration((g) => g + 1);
      return client.invalidateQueries({ queryKey: fileKeys.lists(url, category) });
    },
    chooseCategory: (id: number) => {
      setCategoryId(id);
      setPage(1);
    },
    search: (words: string) => {
      setKeywords(words.trim());
      setPage(1);
    },
    setUnused: (on: boolean) => {
      setUnusedOnly(on);
      setPage(1);
    },
    setView: (next: FileListView) => {
      setViewState(next);
      setPage(1);
    },
  };
}

export type PickerList = ReturnType<typeof usePickerList>;
