import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';

export const siteSettingsKeys = { all: ['settings', 'site'] as const };

function getSiteSettings(signal?: AbortSignal) {
  return fetchData('admin', 'setting/get', {}, { signal });
}

function getSiteSettingsQuery() {
  return queryOptions({
    queryKey: siteSettingsKeys.all,
    queryFn: ({ signal }) => getSiteSettings(signal),
    staleTime: 0,
  });
}

export function useSiteSettings() {
  return useQuery(getSiteSettingsQuery());
}
