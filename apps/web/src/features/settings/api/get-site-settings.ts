import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';

export const siteSettingsKeys = { all: ['settings', 'site'] as const };

export function getSiteSettings(signal?: AbortSignal) {
  return fetchData('admin', 'setting/get', {}, { signal });
}

export function getSiteSettingsQuery() {
  return queryOptions({
    queryKey: siteSettingsKeys.all,
    queryFn: ({ signal }) => getSiteSettings(signal),
    staleTime: 0,
  });
}

export function useSiteSettings() {
  return useQuery(getSiteSettingsQuery());
}
