import { useMutation } from '@tanstack/react-query';
import type { LoginResponse } from '@atrium/shared';
import { fetchData, type ApiError, type CallRequest } from '@/lib/api';
import { useApiStore } from '@/stores/api-store';
import { refreshAppConfig } from '@/features/app';

export type RegisterBody = CallRequest<'member', 'auth/register'>;

/** Creates the account; the server signs the new member in, so the config is refreshed after. */
async function register(body: RegisterBody): Promise<LoginResponse> {
  const data = await fetchData('member', 'auth/register', body, {
    successToast: false,
    onFailure: () => true,
  });
  if (data.token && !useApiStore.getState().token) useApiStore.getState().setToken(data.token);
  await refreshAppConfig();
  return data;
}

export function useRegister() {
  return useMutation<LoginResponse, ApiError, RegisterBody>({ mutationFn: register });
}
