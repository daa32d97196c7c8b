import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ListResponse } from '@atrium/shared/contract/files';
import { fileKeys, fileManagerData } from './file-manager-client';

type FileListAnswer = ListResponse;

function fetchFileList(
  url: string,
  category: string,
  categoryId: number,
  page: number,
  signal?: AbortSignal,
): Promise<FileListAnswer> {
  return fileManagerData(url, category, 'list', { page, categoryId }, { signal });
}

function fileListQueryOptions(url: string, category: string, categoryId: number, page: number) {
  return queryOptions({
    queryKey: fileKeys.list(url, category, categoryId, page),
    queryFn: ({ signal }) => fetchFileList(url, category, categoryId, page, signal),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useFileList(
  url: string,
  category: string,
  categoryId: number,
  page: number,
  enabled: boolean,
) {
  return useQuery({ ...fileListQueryOptions(url, category, categoryId, page), enabled });
}
