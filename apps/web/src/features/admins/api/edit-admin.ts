import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminEditRequest, AdminView } from '@atrium/shared/contract/admins';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { adminKeys } from './keys';

function editAdmin(body: AdminEditRequest) {
  return fetchData('admin', 'admins/edit', body);
}

export function useEditAdmin() {
  const client = useQueryClient();
  return useMutation<AdminView, ApiError, AdminEditRequest>({
    mutationFn: editAdmin,
    onSuccess: () => invalidateFresh(client, { queryKey: adminKeys.all }),
  });
}
