import { useMutation } from '@tanstack/react-query';
import { fetchData, type ApiError, type CallRequest } from '@/lib/api';

export type ResetPasswordBody = CallRequest<'member', 'auth/password_reset'>;

/** Sets a new password with a code; the page says it worked (one toast, in the user's language). */
function resetPassword(body: ResetPasswordBody): Promise<null> {
  return fetchData('member', 'auth/password_reset', body, {
    successToast: false,
    onFailure: () => true,
  });
}

export function useResetPassword() {
  return useMutation<null, ApiError, ResetPasswordBody>({ mutationFn: resetPassword });
}
