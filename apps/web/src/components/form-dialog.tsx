import type { ReactNode } from 'react';
import { Modal } from 'antd';
import { useUnsavedEdits } from '@/components/unsaved-changes/unsaved-changes';
import { useT } from '@/lib/i18n';

export interface FormDialogProps {
  open: boolean;
  title: string;
  /** The id of the form inside: Save submits it. */
  formId: string;
  /** The save is under way. */
  pending: boolean;
  onClose: () => void;
  /** The form, mounted afresh each time the dialog opens; it calls `onChange` on each edit. */
  children: (onChange: () => void) => ReactNode;
}

/**
 * A dialog around one form: Save submits it, Cancel (or ×, or Esc) asks before dropping edits,
 * and closing unmounts it so the next opening starts from the record's values.
 */
export function FormDialog({ open, title, formId, pending, onClose, children }: FormDialogProps) {
  const { t } = useT();
  const edits = useUnsavedEdits(open);
  return (
    <Modal
      open={open}
      title={title}
      onCancel={edits.guard(onClose)}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={pending}
      okButtonProps={{ htmlType: 'submit', form: formId }}
      destroyOnHidden
    >
      {open ? children(edits.changed) : null}
    </Modal>
  );
}
