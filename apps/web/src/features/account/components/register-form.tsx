import { Alert, Button, Form, Input } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import type { LoginResponse } from '@atrium/shared';
import { usernamePattern } from '@atrium/shared/contract/accounts-rules';
import { useRegister } from '../api/register';
import { useAccountT } from '../i18n';
import { NewPasswordFields } from './new-password-fields';
import { useCaptchaRenewal } from './use-captcha-renewal';
import { VerifyFields } from './verify-fields';

interface RegisterValues {
  username: string;
  target: string;
  captcha: string;
  code: string;
  password: string;
  confirm: string;
}

/**
 * Sign-up: username, e-mail or phone confirmed by a code, password. The captcha is answered once,
 * to get the code (which also checks the username); a failed sign-up keeps everything typed.
 */
export function RegisterForm({ onSuccess }: { onSuccess: (result: LoginResponse) => void }) {
  const t = useAccountT();
  const [form] = Form.useForm<RegisterValues>();
  const mutation = useRegister();
  const { captchaKey, renew } = useCaptchaRenewal(form);

  return (
    <Form<RegisterValues>
      form={form}
      layout="vertical"
      size="large"
      onFinish={({ username, target, code, password }) =>
        mutation.mutate({ username: username.trim(), target, code, password }, { onSuccess })
      }
    >
      {mutation.error && (
        <Alert type="error" showIcon title={mutation.error.message} style={{ marginBottom: 20 }} />
      )}
      <Form.Item
        name="username"
        label={t('account.username')}
        extra={t('account.usernameHelp')}
        rules={[
          {
            required: true,
            pattern: usernamePattern,
            transform: (v: string) => v.trim(),
            message: t('account.usernameInvalid'),
          },
        ]}
      >
        <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
      </Form.Item>
      <VerifyFields captchaKey={captchaKey} onCaptchaUsed={renew} usernameField="username" />
      <NewPasswordFields />
      <Form.Item style={{ marginBottom: 0, marginTop: 8 }}>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          {t('account.registerSubmit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
