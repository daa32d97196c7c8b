import { useMutation } from '@tanstack/react-query';
import type { AdminPasswordRequest } from '@atrium/shared/contract/admins';
import { fetchData, type ApiError } from '@/lib/api';

function resetAdminPassword(body: AdminPasswordRequest) {
  return fetchData('admin', 'admins/reset_password', body);
}

export function useResetAdminPassword() {
  return useMutation<null, ApiError, AdminPasswordRequest>({ mutationFn: resetAdminPassword });
}
