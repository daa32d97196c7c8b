import type { ReactNode } from 'react';
import { Button, Modal, Spin } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';
import { useEscapeLayer } from '@/lib/escape-layer';
import { useSmallWindow } from '@/lib/use-media-query';
import { subDialogWidth } from './dialog-width';

export interface SubDialogProps {
  open: boolean;
  title: string;
  /** The call behind Confirm is running: the form is covered and Confirm spins. */
  loading: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /** Once it has opened: where the keyboard should start (the dialog stays mounted, so a field's
   * autoFocus works only the first time). */
  onOpened?: () => void;
  children: ReactNode;
}

/** The picker's small dialogs (SPEC 2.4: 30% wide): a form, then "Confirm". */
export function SubDialog(props: SubDialogProps) {
  const { open, title, loading, onConfirm, onClose, children } = props;
  const t = useFilesT();
  const narrow = useSmallWindow();
  useEscapeLayer(open, onClose);
  return (
    <Modal
      open={open}
      width={subDialogWidth(narrow)}
      title={title}
      onCancel={onClose}
      className="atrium-fp-sub"
      afterOpenChange={(visible) => {
        if (visible) props.onOpened?.();
      }}
      forceRender
      footer={
        <Button type="primary" loading={loading} onClick={onConfirm}>
          {t('files.confirm')}
        </Button>
      }
    >
      <Spin spinning={loading}>{children}</Spin>
    </Modal>
  );
}
