import type { VerifySendResponse } from '@atrium/shared/contract/accounts-rules';
import { fetchData, type CallRequest } from '@/lib/api';

export type SendVerifyCodeBody = CallRequest<'member', 'verify/send'>;

/** Asks for a code to the e-mail or phone; failures are left to the caller to show. */
export function sendVerifyCode(body: SendVerifyCodeBody): Promise<VerifySendResponse> {
  return fetchData('member', 'verify/send', body, {
    successToast: false,
    onFailure: () => true,
  });
}
