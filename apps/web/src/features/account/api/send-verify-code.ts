import { useMutation } from '@tanstack/react-query';
import type { VerifySendResponse } from '@atrium/shared/contract/accounts-rules';
import { fetchData, type ApiError } from '@/lib/api';

export interface SendVerifyCodeBody {
  target: string;
  captcha: string;
}

/** Asks for a code to the e-mail or phone; failures are left to the caller to show. */
export function sendVerifyCode(body: SendVerifyCodeBody): Promise<VerifySendResponse> {
  return fetchData<VerifySendResponse>('verify/send', body, {
    successToast: false,
    onFailure: () => true,
  });
}

export function useSendVerifyCode() {
  return useMutation<VerifySendResponse, ApiError, SendVerifyCodeBody>({
    mutationFn: sendVerifyCode,
  });
}
