import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { FileRecord, ListResponse, ListSortKey } from '@atrium/shared/contract/files';
import { fileKeys, fileManagerData } from './file-manager-client';

/** One page of the list: a category (0 for all) and, when searching, the words a name holds. */
export interface FileListPage {
  categoryId: number;
  page: number;
  keywords: string;
  /** Only files nothing uses (issue 17). */
  unused?: boolean;
  /** Order and filters (issue 17); empty: newest first, everything. */
  view?: FileListView;
}

/** How the list is ordered and narrowed beyond category, words and use (issue 17). */
export interface FileListView {
  /** Absent: newest first. */
  sort?: ListSortKey;
  order?: 'asc' | 'desc';
  /** Extensions, lower case. */
  types?: string[];
  /** Filed from / until (epoch milliseconds, both included). */
  from?: number;
  to?: number;
}

/** Whether `view` narrows or orders the list at all. */
export function isDefaultView(view: FileListView): boolean {
  return (
    view.sort === undefined &&
    !view.types?.length &&
    view.from === undefined &&
    view.to === undefined
  );
}

/** The request fields of `view`, only those it sets. */
function viewFields(view: FileListView) {
  return {
    ...(view.sort ? { sort: view.sort, ...(view.order ? { order: view.order } : {}) } : {}),
    ...(view.types?.length ? { types: view.types } : {}),
    ...(view.from !== undefined ? { from: view.from } : {}),
    ...(view.to !== undefined ? { to: view.to } : {}),
  };
}

function fileListQueryOptions(url: string, category: string, at: FileListPage) {
  const { categoryId, page, keywords, unused = false, view = {} } = at;
  const fields = viewFields(view);
  return queryOptions({
    queryKey: fileKeys.list(url, category, categoryId, page, keywords, unused, fields),
    queryFn: ({ signal }): Promise<ListResponse> =>
      fileManagerData(
        url,
        category,
        'list',
        {
          page,
          categoryId,
          ...(keywords ? { keywords } : {}),
          ...(unused ? { unused } : {}),
          ...fields,
          // Each card's places come with the page (issue 17): the details need no second call.
          withUsage: true,
        },
        { signal },
      ),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useFileList(url: string, category: string, at: FileListPage, enabled: boolean) {
  return useQuery({ ...fileListQueryOptions(url, category, at), enabled });
}

/**
 * Shows a file just saved into `categoryId` at the top of that category's first page at once,
 * before the reload that follows confirms the list (a search is left to the reload: the file may
 * not match it). The page keeps its size; `total` counts the file.
 */
export function showSavedFile(
  client: QueryClient,
  url: string,
  category: string,
  categoryId: number,
  record: FileRecord,
): void {
  client.setQueryData<ListResponse>(fileKeys.list(url, category, categoryId, 1, ''), (page) =>
    page && !page.records.some((r) => r.id === record.id)
      ? {
          ...page,
          records: [record, ...page.records].slice(0, page.pageSize),
          total: page.total + 1,
        }
      : page,
  );
}
