import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberView } from '@atrium/shared/contract/members';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { memberKeys } from './keys';

export interface SetMemberDisabled {
  id: number;
  disabled: boolean;
}

/** Disabling ends the member's sessions at once; enabling lets them sign in again. */
function setMemberDisabled({ id, disabled }: SetMemberDisabled) {
  return fetchData('admin', disabled ? 'members/disable' : 'members/enable', { id });
}

export function useSetMemberDisabled() {
  const client = useQueryClient();
  return useMutation<MemberView, ApiError, SetMemberDisabled>({
    mutationFn: setMemberDisabled,
    onSuccess: () => invalidateFresh(client, { queryKey: memberKeys.all }),
  });
}
