import { Alert, Button, Card, Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { toast } from '@/lib/feedback';
import { useChangePassword } from '../api/change-password';
import { useAccountT } from '../i18n';
import { NewPasswordFields } from './new-password-fields';

interface PasswordValues {
  oldPassword: string;
  password: string;
  confirm: string;
}

/** Change password: the current one, then the new one twice. Other sessions end. */
export function ChangePasswordCard() {
  const t = useAccountT();
  const [form] = Form.useForm<PasswordValues>();
  const mutation = useChangePassword();
  return (
    <Card title={t('account.changePassword')}>
      <Form<PasswordValues>
        form={form}
        layout="vertical"
        style={{ maxWidth: 420 }}
        onFinish={({ oldPassword, password }) =>
          mutation.mutate(
            { oldPassword, password },
            {
              onSuccess: () => {
                form.resetFields();
                toast.success(t('account.passwordChanged'));
              },
            },
          )
        }
      >
        {mutation.error && (
          <Alert
            type="error"
            showIcon
            title={mutation.error.message}
            style={{ marginBottom: 16 }}
          />
        )}
        <Form.Item
          name="oldPassword"
          label={t('account.currentPassword')}
          rules={[{ required: true, message: t('account.passwordRequired') }]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields label={t('account.newPassword')} />
        <Form.Item extra={t('account.changePasswordHelp')} style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('account.changePasswordSubmit')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
