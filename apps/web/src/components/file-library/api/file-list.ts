import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { FileRecord, ListResponse } from '@atrium/shared/contract/files';
import { fileKeys, fileManagerData } from './file-manager-client';

/** One page of the list: a category (0 for all) and, when searching, the words a name holds. */
export interface FileListPage {
  categoryId: number;
  page: number;
  keywords: string;
  /** Only files nothing uses (issue 17). */
  unused?: boolean;
}

function fileListQueryOptions(url: string, category: string, at: FileListPage) {
  const { categoryId, page, keywords, unused = false } = at;
  return queryOptions({
    queryKey: fileKeys.list(url, category, categoryId, page, keywords, unused),
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
