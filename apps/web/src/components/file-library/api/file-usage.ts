import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UsageResponse } from '@atrium/shared/contract/files';
import { fileManagerData } from './file-manager-client';

/** Where these files are used (`usage`, issue 17): each file's places, as far as the caller may see. */
export function fetchUsage(
  url: string,
  category: string,
  ids: readonly number[],
  signal?: AbortSignal,
): Promise<UsageResponse> {
  return fileManagerData(url, category, 'usage', { id: ids.join(',') }, { signal });
}

/** The places one file is used, read when it has any. */
export function useFileUsage(url: string, category: string, id: number, used: boolean) {
  return useQuery({
    ...queryOptions({
      queryKey: ['files', url, category, 'usage', id] as const,
      queryFn: ({ signal }) => fetchUsage(url, category, [id], signal),
      staleTime: 0,
    }),
    enabled: used,
  });
}
