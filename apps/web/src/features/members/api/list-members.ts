import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { MemberListRequest } from '@atrium/shared/contract/members';
import { fetchData } from '@/lib/api';
import { memberKeys } from './keys';

function listMembers(query: MemberListRequest, signal?: AbortSignal) {
  return fetchData('admin', 'members/list', query, { signal });
}

function listMembersQuery(query: MemberListRequest) {
  return queryOptions({
    queryKey: memberKeys.list(query),
    queryFn: ({ signal }) => listMembers(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useMemberList(query: MemberListRequest) {
  return useQuery(listMembersQuery(query));
}
