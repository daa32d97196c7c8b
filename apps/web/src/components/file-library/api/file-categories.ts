import { queryOptions, useQuery } from '@tanstack/react-query';
import { fileKeys, fileManagerData, type FileManagerData } from './file-manager-client';

/** Answer of `category` (SPEC 7.3), as declared in packages/shared/src/contract/files.ts. */
type FileCategoriesAnswer = FileManagerData<'category'>;

function fetchFileCategories(
  url: string,
  category: string,
  signal?: AbortSignal,
): Promise<FileCategoriesAnswer> {
  return fileManagerData(url, category, 'category', {}, { signal });
}

function fileCategoriesQueryOptions(url: string, category: string) {
  return queryOptions({
    queryKey: fileKeys.categories(url, category),
    queryFn: ({ signal }) => fetchFileCategories(url, category, signal),
    staleTime: 0,
  });
}

export function useFileCategories(url: string, category: string, enabled: boolean) {
  return useQuery({ ...fileCategoriesQueryOptions(url, category), enabled });
}
