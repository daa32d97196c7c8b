import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditEntry, AuditListRequest } from '@atrium/shared/contract/audit';
import type { Paged } from '@atrium/shared/contract/paging';
import { fetchData } from '@/lib/api';

export const auditKeys = {
  all: ['audit'] as const,
  list: (query: AuditListRequest) => ['audit', 'list', query] as const,
  options: ['audit', 'options'] as const,
};

export function listAudit(query: AuditListRequest, signal?: AbortSignal) {
  return fetchData<Paged<AuditEntry>>('audit/list', query, { signal });
}

export function listAuditQuery(query: AuditListRequest) {
  return queryOptions({
    queryKey: auditKeys.list(query),
    queryFn: ({ signal }) => listAudit(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useAuditList(query: AuditListRequest) {
  return useQuery(listAuditQuery(query));
}
