import { useMutation } from '@tanstack/react-query';
import { fetchData, type ApiError, type CallRequest } from '@/lib/api';

export type ResetPasswordBody = CallRequest<'member', 'auth/password_reset'>;

/** Sets a new password with a code; the server's message is shown as the success toast. */
function resetPassword(body: ResetPasswordBody): Promise<null> {
  return fetchData('member', 'auth/password_reset', body, { onFailure: () => true });
}

export function useResetPassword() {
  return useMutation<null, ApiError, ResetPasswordBody>({ mutationFn: resetPassword });
}
