import { useEffect } from 'react';
import { Modal } from 'antd';
import { takeDialogs, useDialogQueue } from '@/lib/feedback';

/** Opens the dialogs queued by lib/feedback with antd's Modal, inside the app's providers. */
export function DialogHost() {
  const [modal, holder] = Modal.useModal();
  const pending = useDialogQueue((s) => s.queue.length);
  useEffect(() => {
    for (const request of takeDialogs()) void modal[request.kind](request.props);
  }, [pending, modal]);
  return holder;
}
