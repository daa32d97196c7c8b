import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { uploadConfigLazyKey } from '@atrium/shared/contract/files';
import { Limits } from '@atrium/shared/limits';
import type { UploadConfig } from '@/components/file-library/upload-button/upload-rules';
import { useConfigStore } from '@/stores/config-store';
import { fileKeys, fileManagerData } from './file-manager-client';

/** The upload configuration (`config`, SPEC 7.2); it covers every library, so one fetch per address. */
function fetchUploadConfig(
  url: string,
  category: string,
  signal?: AbortSignal,
): Promise<UploadConfig> {
  return fileManagerData(url, category, 'config', {}, { signal });
}

/**
 * Keyed by the configuration's hash in the last `app/config` (issue 28): a saved change brings a
 * new hash on the next refresh, and with it a new fetch, so an open page uploads by the new
 * settings without a reload.
 */
function uploadConfigQueryOptions(url: string, category: string, version: string | undefined) {
  return queryOptions({
    queryKey: [...fileKeys.uploadConfig(url), version ?? ''],
    queryFn: ({ signal }) => fetchUploadConfig(url, category, signal),
    staleTime: Infinity,
  });
}

const versionOf = (hashes: Record<string, string>): string | undefined =>
  hashes[uploadConfigLazyKey];

export function useUploadConfig(url: string, category: string, enabled: boolean) {
  const version = useConfigStore((s) => versionOf(s.hashLazyValue));
  return useQuery({
    ...uploadConfigQueryOptions(url, category, version),
    enabled,
    // The rules in force stay shown while the new ones are fetched.
    placeholderData: keepPreviousData,
  });
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
  const options = uploadConfigQueryOptions(
    url,
    category,
    versionOf(useConfigStore.getState().hashLazyValue),
  );
  const key = options.queryKey;
  for (;;) {
    const cached = client.getQueryData<UploadConfig>(key);
    if (cached) return cached;
    if (signal?.aborted) return undefined;
    if (client.getQueryState(key)?.fetchStatus !== 'fetching') break;
    await new Promise((resolve) => setTimeout(resolve, Limits.uploadConfigPollMs));
  }
  try {
    return await client.query(options);
  } catch {
    return undefined;
  }
}
