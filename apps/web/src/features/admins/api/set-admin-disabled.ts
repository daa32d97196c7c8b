import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminView } from '@atrium/shared/contract/admins';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { adminKeys } from './keys';

export interface SetAdminDisabled {
  id: number;
  disabled: boolean;
}

/** Disabling ends the administrator's sessions at once; enabling lets them sign in again. */
function setAdminDisabled({ id, disabled }: SetAdminDisabled) {
  return fetchData('admin', disabled ? 'admins/disable' : 'admins/enable', { id });
}

export function useSetAdminDisabled() {
  const client = useQueryClient();
  return useMutation<AdminView, ApiError, SetAdminDisabled>({
    mutationFn: setAdminDisabled,
    onSuccess: () => invalidateFresh(client, { queryKey: adminKeys.all }),
  });
}
