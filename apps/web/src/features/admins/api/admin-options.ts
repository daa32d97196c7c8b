import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';
import { adminKeys } from './keys';

/** The roles an administrator can be given (readable with `system/admin` alone). */
function fetchAdminOptions(signal?: AbortSignal) {
  return fetchData('admin', 'admins/options', {}, { signal });
}

function adminOptionsQuery() {
  return queryOptions({
    queryKey: adminKeys.options,
    queryFn: ({ signal }) => fetchAdminOptions(signal),
    staleTime: 0,
  });
}

export function useAdminOptions(enabled = true) {
  return useQuery({ ...adminOptionsQuery(), enabled });
}
