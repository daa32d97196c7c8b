import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChatShareSettings } from '@atrium/shared/contract/chat-export';
import { fetchData } from '@/lib/api';

export const shareSettingsKey = ['aigc', 'share-settings'] as const;

/** The admin setting of share links: whether members may make public ones. */
function getShareSettings(signal?: AbortSignal): Promise<ChatShareSettings> {
  return fetchData('admin', 'aigc/share/setting', {}, { signal });
}

function shareSettingsQuery() {
  return queryOptions({
    queryKey: shareSettingsKey,
    queryFn: ({ signal }) => getShareSettings(signal),
  });
}

export function useShareSettings() {
  return useQuery(shareSettingsQuery());
}
