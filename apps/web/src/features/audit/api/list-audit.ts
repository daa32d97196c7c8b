import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditListRequest } from '@atrium/shared/contract/audit';
import { fetchData } from '@/lib/api';

export const auditKeys = {
  all: ['audit'] as const,
  list: (query: AuditListRequest) => ['audit', 'list', query] as const,
  options: ['audit', 'options'] as const,
};

function listAudit(query: AuditListRequest, signal?: AbortSignal) {
  return fetchData('admin', 'audit/list', query, { signal });
}

function listAuditQuery(query: AuditListRequest) {
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
