import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoleEditRequest, RoleView } from '@atrium/shared/contract/admins';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { roleKeys } from './list-roles';

function editRole(body: RoleEditRequest) {
  return fetchData('admin', 'roles/edit', body);
}

export function useEditRole() {
  const client = useQueryClient();
  return useMutation<RoleView, ApiError, RoleEditRequest>({
    mutationFn: editRole,
    onSuccess: () => invalidateFresh(client, { queryKey: roleKeys.all }),
  });
}
