import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditOptions } from '@atrium/shared/contract/audit';
import { fetchData } from '@/lib/api';
import { auditKeys } from './list-audit';

/** The administrators and actions the filters offer. */
export function fetchAuditOptions(signal?: AbortSignal) {
  return fetchData<AuditOptions>('audit/options', {}, { signal });
}

export function auditOptionsQuery() {
  return queryOptions({
    queryKey: auditKeys.options,
    queryFn: ({ signal }) => fetchAuditOptions(signal),
    staleTime: 0,
  });
}

export function useAuditOptions() {
  return useQuery(auditOptionsQuery());
}
