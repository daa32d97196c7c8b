import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoginCaptchaMode } from '@atrium/shared/contract/accounts-rules';
import { fetchData } from '@/lib/api';
import { accountKeys } from './keys';

function fetchLoginCaptcha(signal?: AbortSignal): Promise<{ mode: LoginCaptchaMode }> {
  return fetchData('admin', 'system/login_captcha/get', {}, { signal });
}

const loginCaptchaQueryOptions = queryOptions({
  queryKey: accountKeys.loginCaptcha,
  queryFn: ({ signal }) => fetchLoginCaptcha(signal),
  staleTime: 0,
});

export function useLoginCaptchaMode() {
  return useQuery(loginCaptchaQueryOptions);
}
