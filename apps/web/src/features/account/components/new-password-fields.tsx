import { Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useAccountT } from '../i18n';
import { memberPasswordRule } from '@/lib/password-rules';

/** A new password (at least 8 characters with letters and digits) and its confirmation. */
export function NewPasswordFields({ label }: { label?: string }) {
  const t = useAccountT();
  return (
    <>
      <Form.Item
        name="password"
        label={label ?? t('account.password')}
        extra={t('account.passwordHelp')}
        rules={[
          { required: true, message: t('account.passwordRequired') },
          memberPasswordRule(t('account.passwordWeak')),
        ]}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('account.confirmPassword')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('account.passwordRequired') },
          ({ getFieldValue }) => ({
            validator: (_rule, value: unknown) =>
              !value || getFieldValue('password') === value
                ? Promise.resolve()
                : Promise.reject(new Error(t('account.passwordMismatch'))),
          }),
        ]}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
