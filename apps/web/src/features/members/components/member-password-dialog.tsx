import { Alert, Form, Input, Modal } from 'antd';
import type { MemberView } from '@atrium/shared/contract/members-admin';
import { useResetMemberPassword } from '../api/reset-member-password';
import { useMembersT } from '../i18n';
import { memberPasswordRule } from '@/lib/password-rules';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';

interface FormValues {
  password: string;
  confirm: string;
}

export interface MemberPasswordDialogProps {
  member: MemberView | undefined;
  onClose: () => void;
}

export function MemberPasswordDialog({ member, onClose }: MemberPasswordDialogProps) {
  const t = useMembersT();
  const [form] = Form.useForm<FormValues>();
  const reset = useResetMemberPassword();
  const edits = useUnsavedEdits(member !== undefined);

  const submit = async () => {
    if (!member) return;
    const values = await form.validateFields();
    await reset.mutateAsync({ id: member.id, password: values.password });
    onClose();
  };

  return (
    <Modal
      open={member !== undefined}
      title={member ? t('members.resetTitle', { name: member.username }) : ''}
      okText={t('members.save')}
      cancelText={t('members.cancel')}
      confirmLoading={reset.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={edits.guard(onClose)}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('members.resetHint')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" preserve={false} onValuesChange={edits.changed}>
        <Form.Item
          name="password"
          label={t('members.password')}
          rules={[
            { required: true, message: t('members.required') },
            memberPasswordRule(t('members.passwordHint')),
          ]}
        >
          <Input.Password autoComplete="new-password" placeholder={t('members.passwordHint')} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('members.passwordConfirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('members.required') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('members.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
