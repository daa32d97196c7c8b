import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MessagingView } from '@atrium/shared/contract/accounts';
import { fetchData } from '@/lib/api';
import { accountKeys } from './keys';

function fetchMessaging(signal?: AbortSignal): Promise<MessagingView> {
  return fetchData('admin', 'system/message/get', {}, { signal });
}

const messagingQueryOptions = queryOptions({
  queryKey: accountKeys.messaging,
  queryFn: ({ signal }) => fetchMessaging(signal),
  staleTime: 0,
});

export function useMessaging() {
  return useQuery(messagingQueryOptions);
}
