import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';

export const uploadSettingsKeys = { all: ['settings', 'upload'] as const };

function getUploadSettings(signal?: AbortSignal) {
  return fetchData('admin', 'settings/upload/get', {}, { signal });
}

function getUploadSettingsQuery() {
  return queryOptions({
    queryKey: uploadSettingsKeys.all,
    queryFn: ({ signal }) => getUploadSettings(signal),
    staleTime: 0,
  });
}

export function useUploadSettings() {
  return useQuery(getUploadSettingsQuery());
}
