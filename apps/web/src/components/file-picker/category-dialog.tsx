import { useEffect } from 'react';
import { Button, Form, Input, Modal, Spin } from 'antd';
import { useFilesT } from '@/features/files/i18n';
import type { CategoryOption } from './categories';
import { CategorySelect } from './category-select';
import { subDialogWidth } from './dialog-width';
import { useSmallWindow } from '@/lib/use-media-query';

export interface CategoryDraft {
  id: number;
  pid: number;
  title: string;
}

export interface CategoryDialogProps {
  open: boolean;
  draft: CategoryDraft;
  parents: readonly CategoryOption[];
  loading: boolean;
  onSubmit: (draft: CategoryDraft) => void;
  onClose: () => void;
}

/** "Add Category" / "Edit Category": Parent and Name (title), then Confirm (SPEC 2.4). */
export function CategoryDialog(props: CategoryDialogProps) {
  const t = useFilesT();
  const narrow = useSmallWindow();
  const [form] = Form.useForm<{ pid: number; title: string }>();
  const { open, draft } = props;

  useEffect(() => {
    if (open) form.setFieldsValue({ pid: draft.pid, title: draft.title });
  }, [open, draft, form]);

  const submit = () =>
    void form
      .validateFields()
      .then((values) =>
        props.onSubmit({ id: draft.id, pid: values.pid, title: values.title.trim() }),
      )
      .catch(() => undefined);

  return (
    <Modal
      open={open}
      width={subDialogWidth(narrow)}
      title={draft.id > 0 ? t('files.editCategory') : t('files.addCategory')}
      onCancel={props.onClose}
      forceRender
      footer={
        <Button type="primary" loading={props.loading} onClick={submit}>
          {t('files.confirm')}
        </Button>
      }
    >
      <Spin spinning={props.loading}>
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="pid" label={t('files.parent')} rules={[{ required: true }]}>
            <CategorySelect options={props.parents} />
          </Form.Item>
          <Form.Item
            name="title"
            label={t('files.name')}
            rules={[
              { required: true, whitespace: true, message: t('files.pleaseInput') },
              { max: 100 },
            ]}
          >
            <Input autoFocus maxLength={100} onPressEnter={submit} />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
