import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CategoryNode } from '@/components/file-picker/categories';
import { fileKeys, fileManagerData } from './file-manager-client';

/** Answer of `category` (SPEC 7.3); nodes keep whatever child key the server nests under. */
export interface FileCategoriesAnswer {
  categoryTreeAll: CategoryNode[];
  categoryListAll: CategoryNode[];
  categoryTreeParent: CategoryNode[];
  categoryListParent: CategoryNode[];
  categories: CategoryNode[];
}

export function fetchFileCategories(
  url: string,
  category: string,
  signal?: AbortSignal,
): Promise<FileCategoriesAnswer> {
  return fileManagerData<FileCategoriesAnswer>(url, category, { action: 'category' }, { signal });
}

export function fileCategoriesQueryOptions(url: string, category: string) {
  return queryOptions({
    queryKey: fileKeys.categories(url, category),
    queryFn: ({ signal }) => fetchFileCategories(url, category, signal),
    staleTime: 0,
  });
}

export function useFileCategories(url: string, category: string, enabled: boolean) {
  return useQuery({ ...fileCategoriesQueryOptions(url, category), enabled });
}
