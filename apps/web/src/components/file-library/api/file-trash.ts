import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { TrashResponse } from '@atrium/shared/contract/files';
import { fileManagerData } from './file-manager-client';

/** One page of the library's trash (`trash`, issue 17), the latest deleted first. */
export function useTrash(url: string, category: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['files', url, category, 'trash', page] as const,
    queryFn: ({ signal }): Promise<TrashResponse> =>
      fileManagerData(url, category, 'trash', { page }, { signal }),
    staleTime: 0,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Puts files of the trash back where they were (`restore`). */
export function useRestoreFiles(url: string, category: string) {
  return useMutation({
    mutationFn: (ids: readonly number[]) =>
      fileManagerData(url, category, 'restore', { id: ids.join(',') }),
  });
}

/** Deletes files of the trash for good (`purge`): these ids, or every one with 'all'. */
export function usePurgeFiles(url: string, category: string) {
  return useMutation({
    mutationFn: (ids: readonly number[] | 'all') =>
      fileManagerData(
        url,
        category,
        'purge',
        ids === 'all' ? { all: true } : { id: ids.join(',') },
      ),
  });
}
