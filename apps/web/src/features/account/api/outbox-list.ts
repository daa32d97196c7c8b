import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OutboxListResponse } from '@atrium/shared/contract/accounts-rules';
import { fetchData } from '@/lib/api';
import { accountKeys } from './keys';

function fetchOutbox(
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<OutboxListResponse> {
  return fetchData('admin', 'system/outbox/list', { page, pageSize }, { signal });
}

function outboxQueryOptions(page: number, pageSize: number) {
  return queryOptions({
    queryKey: accountKeys.outbox(page, pageSize),
    queryFn: ({ signal }) => fetchOutbox(page, pageSize, signal),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useOutbox(page: number, pageSize: number) {
  return useQuery(outboxQueryOptions(page, pageSize));
}
