import { Alert, Form, Input, Modal } from 'antd';
import type { AdminView } from '@atrium/shared/contract/admins';
import { useResetAdminPassword } from '../api/reset-admin-password';
import { useAdminsT } from '../i18n';
import { adminPasswordRule } from '@/lib/password-rules';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';

interface FormValues {
  password: string;
  confirm: string;
}

export interface ResetPasswordDialogProps {
  admin: AdminView | undefined;
  onClose: () => void;
}

export function ResetPasswordDialog({ admin, onClose }: ResetPasswordDialogProps) {
  const t = useAdminsT();
  const [form] = Form.useForm<FormValues>();
  const reset = useResetAdminPassword();
  const edits = useUnsavedEdits(admin !== undefined);

  const submit = async () => {
    if (!admin) return;
    const values = await form.validateFields();
    await reset.mutateAsync({ id: admin.id, password: values.password });
    onClose();
  };

  return (
    <Modal
      open={admin !== undefined}
      title={admin ? t('admins.resetTitle', { name: admin.username }) : ''}
      okText={t('admins.save')}
      cancelText={t('admins.cancel')}
      confirmLoading={reset.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={edits.guard(onClose)}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('admins.resetHint')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" preserve={false} onValuesChange={edits.changed}>
        <Form.Item
          name="password"
          label={t('admins.password')}
          rules={[
            { required: true, message: t('admins.required') },
            adminPasswordRule(t('admins.passwordHint')),
          ]}
        >
          <Input.Password autoComplete="new-password" placeholder={t('admins.passwordHint')} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('admins.passwordConfirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('admins.required') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('admins.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
