import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';

export const roleKeys = { all: ['roles'] as const };

function listRoles(signal?: AbortSignal) {
  return fetchData('admin', 'roles/list', {}, { signal });
}

function listRolesQuery() {
  return queryOptions({
    queryKey: roleKeys.all,
    queryFn: ({ signal }) => listRoles(signal),
    staleTime: 0,
  });
}

export function useRoleList() {
  return useQuery(listRolesQuery());
}
