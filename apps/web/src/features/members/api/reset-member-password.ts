import { useMutation } from '@tanstack/react-query';
import type { MemberPasswordRequest } from '@atrium/shared/contract/members';
import { fetchData, type ApiError } from '@/lib/api';

function resetMemberPassword(body: MemberPasswordRequest) {
  return fetchData('admin', 'members/reset_password', body);
}

export function useResetMemberPassword() {
  return useMutation<null, ApiError, MemberPasswordRequest>({ mutationFn: resetMemberPassword });
}
