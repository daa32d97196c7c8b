import { Alert, Form, Input, Modal, type FormRule } from 'antd';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';
import { useT } from '@/lib/i18n';

interface FormValues {
  password: string;
  confirm: string;
}

export interface PasswordResetDialogProps {
  /** The account whose password is set; undefined: the dialog is closed. */
  account: { id: number; username: string } | undefined;
  /** What differs between account kinds: the title, what happens, what a password needs. */
  texts: { title: string; hint: string; passwordHint: string };
  /** The account kind's password rule (members' and admins' differ). */
  rule: (message: string) => FormRule;
  reset: {
    isPending: boolean;
    mutateAsync: (input: { id: number; password: string }) => Promise<unknown>;
  };
  onClose: () => void;
}

/** An admin sets a new password for a member or another admin (twice, checked alike). */
export function PasswordResetDialog(props: PasswordResetDialogProps) {
  const { account, texts, rule, reset, onClose } = props;
  const { t } = useT();
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
      title={texts.title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={reset.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={edits.guard(onClose)}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={texts.hint} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" preserve={false} onValuesChange={edits.changed}>
        <Form.Item
          name="password"
          label={t('common.password')}
          rules={[{ required: true, message: t('common.required') }, rule(texts.passwordHint)]}
        >
          <Input.Password autoComplete="new-password" placeholder={texts.passwordHint} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('common.passwordConfirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('common.required') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('common.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
