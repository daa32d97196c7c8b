import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';
import { memberKeys } from './keys';

/** One member with their storage use. */
function getMember(id: number, signal?: AbortSignal) {
  return fetchData('admin', 'members/get', { id }, { signal });
}

function getMemberQuery(id: number) {
  return queryOptions({
    queryKey: memberKeys.detail(id),
    queryFn: ({ signal }) => getMember(id, signal),
    staleTime: 0,
  });
}

export function useMember(id: number | undefined) {
  return useQuery({ ...getMemberQuery(id ?? 0), enabled: id !== undefined });
}
