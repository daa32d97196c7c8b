import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';
import { adminKeys } from './keys';
import { invalidateFresh } from '@/lib/query-client';

function deleteAdmin(id: number) {
  return fetchData('admin', 'admins/delete', { id });
}

export function useDeleteAdmin() {
  const client = useQueryClient();
  return useMutation<null, ApiError, number>({
    mutationFn: deleteAdmin,
    onSuccess: () => invalidateFresh(client, { queryKey: adminKeys.all }),
  });
}
