import { Alert, Form, Input, Modal, type FormRule } from 'antd';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';
import type { MessageVars } from '@/lib/i18n';

interface FormValues {
  password: string;
  confirm: string;
}

/** The texts the dialog asks of its feature's catalogue (members.*, admins.*). */
export type PasswordResetKey =
  | 'resetTitle'
  | 'resetHint'
  | 'save'
  | 'cancel'
  | 'password'
  | 'passwordHint'
  | 'passwordConfirm'
  | 'passwordMismatch'
  | 'required';

export interface PasswordResetDialogProps {
  /** The account whose password is set; undefined: the dialog is closed. */
  account: { id: number; username: string } | undefined;
  t: (key: PasswordResetKey, vars?: MessageVars) => string;
  /** The account kind's password rule (members' and admins' differ). */
  rule: (message: string) => FormRule;
  reset: {
    isPending: boolean;
    mutateAsync: (input: { id: number; password: string }) => Promise<unknown>;
  };
  onClose: () => void;
}

/** An admin sets a new password for a member or another admin (twice, checked alike). */
export function PasswordResetDialog({
  account,
  t,
  rule,
  reset,
  onClose,
}: PasswordResetDialogProps) {
  const [form] = Form.useForm<FormValues>();
  const edits = useUnsavedEdits(account !== undefined);

  const submit = async () => {
    if (!account) return;
    const values = await form.validateFields();
    await reset.mutateAsync({ id: account.id, password: values.password });
    onClose();
  };

  return (
    <Modal
      open={account !== undefined}
      title={account ? t('resetTitle', { name: account.username }) : ''}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={reset.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={edits.guard(onClose)}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('resetHint')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" preserve={false} onValuesChange={edits.changed}>
        <Form.Item
          name="password"
          label={t('password')}
          rules={[{ required: true, message: t('required') }, rule(t('passwordHint'))]}
        >
          <Input.Password autoComplete="new-password" placeholder={t('passwordHint')} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('passwordConfirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('required') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
