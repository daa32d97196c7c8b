import { Form, Input, Modal } from 'antd';
import { useCreateMember } from '../api/create-member';
import { useMembersT } from '../i18n';
import { memberPasswordRule } from '@/lib/password-rules';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';

interface FormValues {
  username: string;
  password: string;
  email: string;
  phone: string;
  nickname: string;
}

export interface MemberCreateDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Creates a member account under the same rules as self-registration (the server checks too). */
export function MemberCreateDialog({ open, onClose }: MemberCreateDialogProps) {
  const t = useMembersT();
  const [form] = Form.useForm<FormValues>();
  const create = useCreateMember();
  const edits = useUnsavedEdits(open);

  const submit = async () => {
    const values = await form.validateFields();
    await create.mutateAsync(values);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('members.createTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={edits.guard(onClose)}
      destroyOnHidden
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        preserve={false}
        onValuesChange={edits.changed}
        initialValues={{ username: '', password: '', email: '', phone: '', nickname: '' }}
      >
        <Form.Item
          name="username"
          label={t('members.username')}
          extra={t('members.usernameRule')}
          rules={[
            { required: true, message: t('common.required') },
            { pattern: /^\p{L}[\p{L}\p{N}_]{2,31}$/u, message: t('members.usernameRule') },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('common.password')}
          rules={[
            { required: true, message: t('common.required') },
            memberPasswordRule(t('members.passwordHint')),
          ]}
        >
          <Input.Password autoComplete="new-password" placeholder={t('members.passwordHint')} />
        </Form.Item>
        <Form.Item name="email" label={t('members.email')} rules={[{ type: 'email' }]}>
          <Input placeholder={t('members.optional')} />
        </Form.Item>
        <Form.Item name="phone" label={t('members.phone')}>
          <Input placeholder={t('members.optional')} />
        </Form.Item>
        <Form.Item name="nickname" label={t('members.nickname')} rules={[{ max: 64 }]}>
          <Input placeholder={t('members.optional')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
