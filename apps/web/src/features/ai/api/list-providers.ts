import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProviderRecord } from '@atrium/shared/contract/chat';
import { fetchData } from '@/lib/api';
import { aiKeys } from './keys';

/** Providers with their models; keys appear only as `hasKey` and a masked hint. */
async function listProviders(signal?: AbortSignal): Promise<ProviderRecord[]> {
  return (await fetchData('admin', 'aigc/provider/list', {}, { signal })).records;
}

function listProvidersQuery() {
  return queryOptions({
    queryKey: aiKeys.all,
    queryFn: ({ signal }) => listProviders(signal),
    staleTime: 0,
  });
}

export function useProviders() {
  return useQuery(listProvidersQuery());
}
