import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ListResponse } from '@atrium/shared/contract/files';
import { fileKeys, fileManagerData } from './file-manager-client';

/** One page of the list: a category (0 for all) and, when searching, the words a name holds. */
export interface FileListPage {
  categoryId: number;
  page: number;
  keywords: string;
}

function fileListQueryOptions(url: string, category: string, at: FileListPage) {
  const { categoryId, page, keywords } = at;
  return queryOptions({
    queryKey: fileKeys.list(url, category, categoryId, page, keywords),
    queryFn: ({ signal }): Promise<ListResponse> =>
      fileManagerData(
        url,
        category,
        'list',
        keywords ? { page, categoryId, keywords } : { page, categoryId },
        { signal },
      ),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useFileList(url: string, category: string, at: FileListPage, enabled: boolean) {
  return useQuery({ ...fileListQueryOptions(url, category, at), enabled });
}
