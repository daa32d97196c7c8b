import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminListRequest } from '@atrium/shared/contract/admins';
import { fetchData } from '@/lib/api';
import { adminKeys } from './keys';

function listAdmins(query: AdminListRequest, signal?: AbortSignal) {
  return fetchData('admin', 'admins/list', query, { signal });
}

function listAdminsQuery(query: AdminListRequest) {
  return queryOptions({
    queryKey: adminKeys.list(query),
    queryFn: ({ signal }) => listAdmins(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useAdminList(query: AdminListRequest) {
  return useQuery(listAdminsQuery(query));
}
