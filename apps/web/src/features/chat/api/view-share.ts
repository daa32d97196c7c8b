import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChatShareView } from '@atrium/shared/contract/chat-export';
import { fetchData } from '@/lib/api';

/**
 * A shared snapshot. A visitor the link is not open to hears "not logged in", which sends them
 * to sign in and back here; "not found" is the page's own to show, so no toast.
 */
function viewShare(token: string, signal?: AbortSignal): Promise<ChatShareView> {
  return fetchData('member', 'aigc/share/view', { token }, { signal, errorToast: false });
}

function viewShareQuery(token: string) {
  return queryOptions({
    queryKey: ['aigc', 'share', token] as const,
    queryFn: ({ signal }) => viewShare(token, signal),
    retry: false,
  });
}

export function useSharedConversation(token: string) {
  return useQuery(viewShareQuery(token));
}
