import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoleCreateRequest, RoleView } from '@atrium/shared/contract/admins';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { roleKeys } from './list-roles';

function createRole(body: RoleCreateRequest) {
  return fetchData('admin', 'roles/create', body);
}

export function useCreateRole() {
  const client = useQueryClient();
  return useMutation<RoleView, ApiError, RoleCreateRequest>({
    mutationFn: createRole,
    onSuccess: () => invalidateFresh(client, { queryKey: roleKeys.all }),
  });
}
