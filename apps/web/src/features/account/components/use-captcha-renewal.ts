import { useState } from 'react';
import type { FormInstance } from 'antd';
import { isCaptchaWrong } from '@/components/captcha/captcha-field';

/**
 * The captcha key of a form and what to do once an answer has used the captcha up: forget the
 * typed text and draw a new image (a wrong captcha has drawn its new image by itself).
 */
export function useCaptchaRenewal(form: FormInstance) {
  const [captchaKey, setCaptchaKey] = useState(0);
  const renew = (error?: unknown) => {
    form.setFieldValue('captcha', '');
    if (!isCaptchaWrong(error)) setCaptchaKey((k) => k + 1);
  };
  return { captchaKey, renew };
}
