import { useMutation } from '@tanstack/react-query';
import type { LoginRequest, LoginResponse } from '@atrium/shared';
import { fetchData, runningArea, type ApiError } from '@/lib/api';
import { useApiStore } from '@/stores/api-store';
import { refreshAppConfig } from '@/features/app';

/**
 * Signs in and waits for the refreshed config, so the page the user returns to already knows
 * who they are. Failures are shown by the form itself, not as a toast.
 */
async function login(body: LoginRequest): Promise<LoginResponse> {
  const data = await fetchData(runningArea(), 'auth/login', body, {
    successToast: false,
    onFailure: () => true,
  });
  // The token header normally set it already; the body copy covers proxies that strip headers.
  if (data.token && !useApiStore.getState().token) useApiStore.getState().setToken(data.token);
  await refreshAppConfig();
  return data;
}

export function useLogin() {
  return useMutation<LoginResponse, ApiError, LoginRequest>({ mutationFn: login });
}
