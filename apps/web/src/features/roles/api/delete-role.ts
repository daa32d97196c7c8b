import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { roleKeys } from './list-roles';

function deleteRole(id: number) {
  return fetchData('admin', 'roles/delete', { id });
}

export function useDeleteRole() {
  const client = useQueryClient();
  return useMutation<null, ApiError, number>({
    mutationFn: deleteRole,
    onSuccess: () => invalidateFresh(client, { queryKey: roleKeys.all }),
  });
}
