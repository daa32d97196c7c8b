import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCreateRequest, AdminView } from '@atrium/shared/contract/admins';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { adminKeys } from './keys';

function createAdmin(body: AdminCreateRequest) {
  return fetchData('admin', 'admins/create', body);
}

export function useCreateAdmin() {
  const client = useQueryClient();
  return useMutation<AdminView, ApiError, AdminCreateRequest>({
    mutationFn: createAdmin,
    onSuccess: () => invalidateFresh(client, { queryKey: adminKeys.all }),
  });
}
