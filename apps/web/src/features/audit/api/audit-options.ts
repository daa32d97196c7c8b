import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';
import { auditKeys } from './list-audit';

/** The administrators and actions the filters offer. */
function fetchAuditOptions(signal?: AbortSignal) {
  return fetchData('admin', 'audit/options', {}, { signal });
}

function auditOptionsQuery() {
  return queryOptions({
    queryKey: auditKeys.options,
    queryFn: ({ signal }) => fetchAuditOptions(signal),
    staleTime: 0,
  });
}

export function useAuditOptions() {
  return useQuery(auditOptionsQuery());
}
