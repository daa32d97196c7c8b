import { Alert, Button, Form } from 'antd';
import { useResetPassword } from '../api/reset-password';
import { useAccountT } from '../i18n';
import { NewPasswordFields } from './new-password-fields';
import { useCaptchaRenewal } from './use-captcha-renewal';
import { VerifyFields } from './verify-fields';

interface ResetValues {
  target: string;
  captcha: string;
  code: string;
  password: string;
  confirm: string;
}

/** Forgot password: a code to the e-mail or phone of the account, then a new password. */
export function ForgotPasswordForm({ onSuccess }: { onSuccess: () => void }) {
  const t = useAccountT();
  const [form] = Form.useForm<ResetValues>();
  const mutation = useResetPassword();
  const { captchaKey, renew } = useCaptchaRenewal(form);

  return (
    <Form<ResetValues>
      form={form}
      layout="vertical"
      size="large"
      onFinish={({ target, code, password }) =>
        mutation.mutate({ target, code, password }, { onSuccess })
      }
    >
      {mutation.error && (
        <Alert type="error" showIcon title={mutation.error.message} style={{ marginBottom: 20 }} />
      )}
      <VerifyFields captchaKey={captchaKey} onCaptchaUsed={renew} />
      <NewPasswordFields label={t('account.newPassword')} />
      <Form.Item style={{ marginBottom: 0, marginTop: 8 }}>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          {t('account.resetSubmit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
