import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { ChatQuota, UsageRequest, UsageResponse } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';

const usageKeys = {
  summary: (query: UsageRequest) => ['aigc', 'admin', 'usage', query] as const,
  quota: ['aigc', 'admin', 'quota'] as const,
};

/** Answers and tokens by day, room and member for a range of UTC days (admin). */
function usageSummary(query: UsageRequest, signal?: AbortSignal): Promise<UsageResponse> {
  return fetchData('admin', 'aigc/usage/summary', query, { signal });
}

function usageSummaryQuery(query: UsageRequest) {
  return queryOptions({
    queryKey: usageKeys.summary(query),
    queryFn: ({ signal }) => usageSummary(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useUsageSummary(query: UsageRequest) {
  return useQuery(usageSummaryQuery(query));
}

function getQuota(signal?: AbortSignal): Promise<ChatQuota> {
  return fetchData('admin', 'aigc/usage/quota', {}, { signal });
}

export function useQuota() {
  return useQuery({
    queryKey: usageKeys.quota,
    queryFn: ({ signal }) => getQuota(signal),
    staleTime: 0,
  });
}

function saveQuota(quota: ChatQuota): Promise<ChatQuota> {
  return fetchData('admin', 'aigc/usage/quota_save', quota);
}

export function useSaveQuota() {
  const client = useQueryClient();
  return useMutation<ChatQuota, ApiError, ChatQuota>({
    mutationFn: saveQuota,
    onSuccess: (quota) => client.setQueryData(usageKeys.quota, quota),
  });
}
