import { useMutation } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';

export interface ResetPasswordBody {
  target: string;
  code: string;
  password: string;
}

/** Sets a new password with a code; the server's message is shown as the success toast. */
export function resetPassword(body: ResetPasswordBody): Promise<null> {
  return fetchData<null>('auth/password_reset', body, { onFailure: () => true });
}

export function useResetPassword() {
  return useMutation<null, ApiError, ResetPasswordBody>({ mutationFn: resetPassword });
}
