import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginCaptchaMode } from '@atrium/shared/contract/accounts-rules';
import { fetchData, type ApiError } from '@/lib/api';
import { accountKeys } from './keys';

function saveLoginCaptcha(mode: LoginCaptchaMode): Promise<{ mode: LoginCaptchaMode }> {
  return fetchData('admin', 'system/login_captcha/save', { mode });
}

export function useSaveLoginCaptcha() {
  const client = useQueryClient();
  return useMutation<{ mode: LoginCaptchaMode }, ApiError, LoginCaptchaMode>({
    mutationFn: saveLoginCaptcha,
    onSuccess: (data) => client.setQueryData(accountKeys.loginCaptcha, data),
  });
}
