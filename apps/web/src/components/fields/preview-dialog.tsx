import { Modal } from 'antd';
import { assetUrl } from '@/lib/urls';
import { fileNameOf } from './paths';

export interface PreviewDialogProps {
  /** The image shown; empty closes the dialog. */
  path: string;
  onClose: () => void;
}

/** An image enlarged in a dialog (SPEC 2.5 "preview (enlarged dialog)"). */
export function PreviewDialog({ path, onClose }: PreviewDialogProps) {
  const name = path ? fileNameOf(path) : '';
  return (
    <Modal
      open={path !== ''}
      title={name}
      footer={null}
      onCancel={onClose}
      centered
      width="min(92vw, 960px)"
      destroyOnHidden
    >
      <div className="atrium-field-preview">
        {path ? <img src={assetUrl(path)} alt={name} /> : null}
      </div>
    </Modal>
  );
}
