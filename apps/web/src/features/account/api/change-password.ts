import { useMutation } from '@tanstack/react-query';
import { fetchData, type ApiError, type CallRequest } from '@/lib/api';

export type ChangePasswordBody = CallRequest<'member', 'account/password'>;

/**
 * Changes the password; this session stays, the member's other sessions end. The card says it
 * worked (one toast, not the server's as well).
 */
function changePassword(body: ChangePasswordBody): Promise<null> {
  return fetchData('member', 'account/password', body, {
    successToast: false,
    onFailure: () => true,
  });
}

export function useChangePassword() {
  return useMutation<null, ApiError, ChangePasswordBody>({ mutationFn: changePassword });
}
