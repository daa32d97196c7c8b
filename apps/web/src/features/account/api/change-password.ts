import { useMutation } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';

export interface ChangePasswordBody {
  oldPassword: string;
  password: string;
}

/** Changes the password; this session stays, the member's other sessions end. */
export function changePassword(body: ChangePasswordBody): Promise<null> {
  return fetchData<null>('account/password', body, { onFailure: () => true });
}

export function useChangePassword() {
  return useMutation<null, ApiError, ChangePasswordBody>({ mutationFn: changePassword });
}
