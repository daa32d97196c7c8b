import { useEffect } from 'react';
import { Form } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';
import type { CategoryOption } from './categories';
import { CategorySelect } from './category-select';
import { SubDialog } from './sub-dialog';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';

export interface FileEditDialogProps {
  open: boolean;
  categoryId: number;
  categories: readonly CategoryOption[];
  loading: boolean;
  onSubmit: (categoryId: number) => void;
  onClose: () => void;
}

/** "Edit File": moves the checked files to the chosen category (SPEC 2.4). */
export function FileEditDialog(props: FileEditDialogProps) {
  const t = useFilesT();
  const [form] = Form.useForm<{ categoryId: number }>();
  const { open, categoryId } = props;
  const edits = useUnsavedEdits(open);

  useEffect(() => {
    if (open) form.setFieldsValue({ categoryId });
  }, [open, categoryId, form]);

  const submit = () =>
    void form
      .validateFields()
      .then((values) => props.onSubmit(values.categoryId))
      .catch(() => undefined);

  return (
    <SubDialog
      open={open}
      title={t('files.editFile')}
      loading={props.loading}
      onConfirm={submit}
      onClose={edits.guard(props.onClose)}
    >
      <Form form={form} layout="vertical" requiredMark={false} onValuesChange={edits.changed}>
        <Form.Item name="categoryId" label={t('files.category')} rules={[{ required: true }]}>
          <CategorySelect options={props.categories} />
        </Form.Item>
      </Form>
    </SubDialog>
  );
}
