import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { Limits } from '@atrium/shared/limits';
import type { UploadConfig } from '@/components/file-library/upload-button/upload-rules';
import { fileKeys, fileManagerData } from './file-manager-client';

/** The upload configuration (`config`, SPEC 7.2); it covers every library, so one fetch per address. */
function fetchUploadConfig(
  url: string,
  category: string,
  signal?: AbortSignal,
): Promise<UploadConfig> {
  return fileManagerData(url, category, 'config', {}, { signal });
}

function uploadConfigQueryOptions(url: string, category: string) {
  return queryOptions({
    queryKey: fileKeys.uploadConfig(url),
    queryFn: ({ signal }) => fetchUploadConfig(url, category, signal),
    staleTime: Infinity,
  });
}

export function useUploadConfig(url: string, category: string, enabled: boolean) {
  return useQuery({ ...uploadConfigQueryOptions(url, category), enabled });
}

/**
 * The configuration for a button that needs it now. While some button's fetch is in flight the
 * others look again every 100 ms (SPEC 7.2) instead of fetching too, so all share one call.
 * Resolves undefined when the fetch failed: the button then falls back to SPEC 9's limits.
 */
export async function resolveUploadConfig(
  client: QueryClient,
  url: string,
  category: string,
  signal?: AbortSignal,
): Promise<UploadConfig | undefined> {
  const key = fileKeys.uploadConfig(url);
  for (;;) {
    const cached = client.getQueryData<UploadConfig>(key);
    if (cached) return cached;
    if (signal?.aborted) return undefined;
    if (client.getQueryState(key)?.fetchStatus !== 'fetching') break;
    await new Promise((resolve) => setTimeout(resolve, Limits.uploadConfigPollMs));
  }
  try {
    return await client.query(uploadConfigQueryOptions(url, category));
  } catch {
    return undefined;
  }
}
