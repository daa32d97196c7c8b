import type { ReactNode } from 'react';
import { Form } from 'antd';
import { Code } from '@atrium/shared/codes';
import { ApiError } from '@/lib/api';
import { CaptchaInput } from './captcha-input';
import { useCaptchaT } from './captcha-i18n';

export interface CaptchaFieldProps {
  name?: string;
  /** Changing it draws a new image; bump it whenever an answer has used the captcha up. */
  refreshKey?: number;
  autoFocus?: boolean;
  /** Whether submitting the form needs it (default true); a form may need it only to send a code. */
  required?: boolean;
  /** A hint under the field (what the captcha is for). */
  extra?: ReactNode;
}

/** The captcha as an antd form field named `captcha`. */
export function CaptchaField({
  name = 'captcha',
  refreshKey,
  autoFocus,
  required = true,
  extra,
}: CaptchaFieldProps) {
  const t = useCaptchaT();
  return (
    <Form.Item
      name={name}
      label={t('captcha.label')}
      extra={extra}
      rules={[{ required, whitespace: true, message: t('captcha.required') }]}
    >
      <CaptchaInput
        placeholder={t('captcha.placeholder')}
        refreshKey={refreshKey}
        autoFocus={autoFocus}
      />
    </Form.Item>
  );
}

function dataFlag(error: ApiError, flag: string): boolean {
  const data = error.result.data;
  return (
    typeof data === 'object' &&
    data !== null &&
    flag in data &&
    Boolean(data[flag as keyof typeof data])
  );
}

/** Whether a failed login says the next attempt needs the captcha. */
export function captchaRequiredBy(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === Code.CaptchaWrong || dataFlag(error, 'captchaRequired'))
  );
}

/** Whether the failure was a wrong captcha (the control has then refreshed itself). */
export function isCaptchaWrong(error: unknown): boolean {
  return error instanceof ApiError && error.code === Code.CaptchaWrong;
}
