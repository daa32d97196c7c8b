import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChatShareList } from '@atrium/shared/contract/chat-export';
import { fetchData } from '@/lib/api';

export const shareKeys = { list: ['aigc', 'shares'] as const };

/** The member's share links, newest first, and whether the site allows public links. */
function listShares(signal?: AbortSignal): Promise<ChatShareList> {
  return fetchData('member', 'aigc/share/list', {}, { signal });
}

export function listSharesQuery() {
  return queryOptions({ queryKey: shareKeys.list, queryFn: ({ signal }) => listShares(signal) });
}

export function useShares(enabled: boolean) {
  return useQuery({ ...listSharesQuery(), enabled });
}
