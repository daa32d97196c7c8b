import { lazy, Suspense, useEffect, useState } from 'react';
import { message } from 'antd';
import { mountAnnouncer } from '@/lib/announce';
import { watchFormErrors } from './fields/form-a11y/error-announcer';
import { bindMessage, setDialogHostAvailable, useDialogQueue } from '@/lib/feedback';

const DialogHost = lazy(async () => ({ default: (await import('./dialog-host')).DialogHost }));

/**
 * Holds the toasts and dialogs opened through lib/feedback inside the theme and locale
 * providers, so they look like the rest of the page. The dialog host loads with the first dialog.
 */
export function FeedbackBridge() {
  const [messageApi, messageHolder] = message.useMessage();
  const asked = useDialogQueue((s) => s.queue.length > 0);
  const [hostNeeded, setHostNeeded] = useState(false);
  if (asked && !hostNeeded) setHostNeeded(true);
  useEffect(() => {
    mountAnnouncer();
    const unwatch = watchFormErrors();
    bindMessage(messageApi);
    setDialogHostAvailable(true);
    return () => {
      unwatch();
      bindMessage(null);
      setDialogHostAvailable(false);
    };
  }, [messageApi]);
  return (
    <>
      {messageHolder}
      {hostNeeded && (
        <Suspense fallback={null}>
          <DialogHost />
        </Suspense>
      )}
    </>
  );
}
