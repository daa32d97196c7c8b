import { useEffect, useRef } from 'react';
import { Form, Input, type InputRef } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';
import type { CategoryOption } from './categories';
import { CategorySelect } from './category-select';
import { SubDialog } from './sub-dialog';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';

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
  const [form] = Form.useForm<{ pid: number; title: string }>();
  const { open, draft } = props;
  const edits = useUnsavedEdits(open);
  const name = useRef<InputRef>(null);

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
    <SubDialog
      open={open}
      title={draft.id > 0 ? t('files.editCategory') : t('files.addCategory')}
      loading={props.loading}
      onConfirm={submit}
      onClose={edits.guard(props.onClose)}
      onOpened={() => name.current?.focus()}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        onValuesChange={edits.changed}
        requiredMark={false}
      >
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
          <Input ref={name} maxLength={100} onPressEnter={submit} />
        </Form.Item>
      </Form>
    </SubDialog>
  );
}
