import { Form, Input } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { Code } from '@atrium/shared/codes';
import { parseTarget } from '@atrium/shared/contract/accounts-rules';
import { CaptchaField } from '@/components/captcha/captcha-field';
import { ApiError } from '@/lib/api';
import { toast } from '@/lib/feedback';
import { sendVerifyCode } from '../api/send-verify-code';
import { useAccountT } from '../i18n';
import { CodeInput } from './code-input';

export interface VerifyFieldsProps {
  captchaKey: number;
  /** Called once a send has reached the server: the captcha is used up either way. */
  onCaptchaUsed: (error?: unknown) => void;
  /**
   * The form field holding the username of a sign-up: checked and sent with the code request, so
   * a taken name is said beside it before anything else is filled in.
   */
  usernameField?: string;
}

class MissingCaptcha extends Error {}

/** The form field a refusal names (`data.field`), if any. */
function refusedField(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const data = error.result.data;
  return typeof data === 'object' &&
    data !== null &&
    'field' in data &&
    typeof data.field === 'string'
    ? data.field
    : undefined;
}

/**
 * E-mail or phone, the captcha, and the code with its send button (register and reset). The
 * captcha is asked only to send a code (SPEC 7.4); submitting the form needs the code alone.
 */
export function VerifyFields({ captchaKey, onCaptchaUsed, usernameField }: VerifyFieldsProps) {
  const t = useAccountT();
  const form = Form.useFormInstance<Record<string, string>>();

  const send = async () => {
    const names = usernameField ? [usernameField, 'target'] : ['target'];
    const values = await form.validateFields(names);
    const captcha = String(form.getFieldValue('captcha') ?? '').trim();
    if (!captcha) {
      form.setFields([{ name: 'captcha', errors: [t('account.captchaRequired')] }]);
      throw new MissingCaptcha();
    }
    const username = usernameField ? String(values[usernameField] ?? '').trim() : undefined;
    try {
      await sendVerifyCode({
        target: String(values.target),
        captcha,
        ...(username ? { username } : {}),
      });
    } catch (error) {
      onCaptchaUsed(error);
      throw error;
    }
    onCaptchaUsed();
    toast.success(t('account.codeSent'));
  };

  const onError = (error: unknown) => {
    // Field problems are already shown beside the fields.
    if (!(error instanceof ApiError)) return;
    const field = refusedField(error);
    if (field !== undefined && field === usernameField) {
      form.setFields([{ name: field, errors: [error.message] }]);
      return;
    }
    const data = error.result.data;
    const wait =
      error.code === Code.TooManyRequests &&
      typeof data === 'object' &&
      data !== null &&
      'wait' in data
        ? Number(data.wait)
        : undefined;
    toast.error(wait ? t('account.wait', { count: wait }) : error.message);
  };

  return (
    <>
      <Form.Item
        name="target"
        label={t('account.target')}
        required
        rules={[
          {
            validator: (_rule, value: unknown) =>
              typeof value === 'string' && parseTarget(value)
                ? Promise.resolve()
                : Promise.reject(new Error(t('account.targetInvalid'))),
          },
        ]}
      >
        <Input
          prefix={<MailOutlined />}
          autoComplete="email"
          placeholder={t('account.targetPlaceholder')}
        />
      </Form.Item>
      <CaptchaField refreshKey={captchaKey} required={false} extra={t('account.captchaForCode')} />
      <Form.Item
        name="code"
        label={t('account.code')}
        rules={[{ required: true, pattern: /^\d{6}$/, message: t('account.codeInvalid') }]}
      >
        <CodeInput placeholder={t('account.codePlaceholder')} send={send} onError={onError} />
      </Form.Item>
    </>
  );
}
