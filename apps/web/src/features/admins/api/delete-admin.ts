import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { adminKeys } from './keys';

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
