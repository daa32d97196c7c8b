import { useEffect } from 'react';
import { Alert, Form, Input, Modal, Select } from 'antd';
import type { AdminView } from '@atrium/shared/contract/admins';
import { useAdminOptions } from '../api/admin-options';
import { useCreateAdmin } from '../api/create-admin';
import { useEditAdmin } from '../api/edit-admin';
import { useAdminsT } from '../i18n';
import { adminPasswordRule } from '@/lib/password-rules';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';

interface FormValues {
  username: string;
  password: string;
  nickname: string;
  roleIds: number[];
}

export interface AdminFormDialogProps {
  open: boolean;
  /** The administrator to edit; undefined creates a new one. */
  admin: AdminView | undefined;
  onClose: () => void;
}

/** Creates an administrator, or edits one's nickname and roles. */
export function AdminFormDialog({ open, admin, onClose }: AdminFormDialogProps) {
  const t = useAdminsT();
  const [form] = Form.useForm<FormValues>();
  const options = useAdminOptions(open);
  const create = useCreateAdmin();
  const edit = useEditAdmin();
  const editing = admin !== undefined;
  const edits = useUnsavedEdits(open);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      admin
        ? { nickname: admin.nickname, roleIds: admin.roles.map((r) => r.id) }
        : { username: '', password: '', nickname: '', roleIds: [] },
    );
  }, [open, admin, form]);

  const submit = async () => {
    const values = await form.validateFields();
    if (admin) {
      await edit.mutateAsync({ id: admin.id, nickname: values.nickname, roleIds: values.roleIds });
    } else {
      await create.mutateAsync(values);
    }
    onClose();
  };

  return (
    <Modal
      open={open}
      title={admin ? t('admins.editTitle', { name: admin.username }) : t('admins.createTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending || edit.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={edits.guard(onClose)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} onValuesChange={edits.changed}>
        {!editing && (
          <>
            <Form.Item
              name="username"
              label={t('admins.username')}
              extra={t('admins.usernameRule')}
              rules={[
                { required: true, message: t('common.required') },
                { pattern: /^[\w.@-]{1,64}$/, message: t('admins.usernameRule') },
              ]}
            >
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('common.password')}
              rules={[
                { required: true, message: t('common.required') },
                adminPasswordRule(t('admins.passwordHint')),
              ]}
            >
              <Input.Password autoComplete="new-password" placeholder={t('admins.passwordHint')} />
            </Form.Item>
          </>
        )}
        <Form.Item name="nickname" label={t('admins.nickname')} rules={[{ max: 64 }]}>
          <Input placeholder={admin?.username} />
        </Form.Item>
        {admin?.isFounder ? (
          <Alert type="info" showIcon title={t('admins.founderRoles')} />
        ) : (
          <Form.Item name="roleIds" label={t('admins.roles')}>
            <Select
              mode="multiple"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              loading={options.isPending}
              placeholder={t('admins.rolesPlaceholder')}
              options={(options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
