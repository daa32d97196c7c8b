import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Modal } from 'antd';
import { alertDialog } from '@/lib/feedback';
import { tFiles, useFilesT } from '@/components/file-library/i18n';
import { pickerDialogWidth } from './dialog-width';
import { parseSelectorItems } from './external-items';
import type { PickedFile } from './selection';
import { useEscapeLayer } from '@/lib/escape-layer';
import { useSmallWindow } from '@/lib/use-media-query';
import { useConfigStore } from '@/stores/config-store';

declare global {
  interface Window {
    /** Address of an external selector; the picker opens `{server}/{category}` in a dialog. */
    __selectorDialogServer?: string;
  }
}

/** The page's `window.__selectorDialogServer` (SPEC 2.4), else the site setting's. */
function selectorServer(): string | undefined {
  const fromSite = useConfigStore.getState().config.selectorServer;
  const server = window.__selectorDialogServer ?? fromSite;
  return typeof server === 'string' && server.trim()
    ? server.trim().replace(/\/+$/, '')
    : undefined;
}

/**
 * Whether the page's policy refused to frame `origin`: the policy is the one the page was loaded
 * with, so an address saved (or changed) since then is allowed only after a reload.
 */
function useFrameBlocked(open: boolean, origin: string | undefined): boolean {
  const [blocked, setBlocked] = useState<string>();
  useEffect(() => {
    if (!open || !origin) return;
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (!event.effectiveDirective.startsWith('frame-src')) return;
      try {
        if (new URL(event.blockedURI).origin === origin) setBlocked(origin);
      } catch {
        // Not an address (e.g. "inline"): not our frame.
      }
    };
    document.addEventListener('securitypolicyviolation', onViolation);
    return () => document.removeEventListener('securitypolicyviolation', onViolation);
  }, [open, origin]);
  return open && blocked !== undefined && blocked === origin;
}

export interface ExternalSelectorProps {
  category: string;
  open: boolean;
  max: number;
  onConfirm: (items: PickedFile[]) => void;
  onClose: () => void;
}

/** The external selector mode of SPEC 2.4: `{server}/{category}` in a dialog, answering by postMessage. */
export function ExternalSelector({
  category,
  open,
  max,
  onConfirm,
  onClose,
}: ExternalSelectorProps) {
  useEscapeLayer(open, onClose);
  const t = useFilesT();
  const narrow = useSmallWindow();
  const frame = useRef<HTMLIFrameElement>(null);
  const server = selectorServer();
  const latest = useRef({ onConfirm, onClose });
  useEffect(() => {
    latest.current = { onConfirm, onClose };
  });
  const origin = server ? new URL(server, window.location.href).origin : undefined;
  const blocked = useFrameBlocked(open, origin);

  useEffect(() => {
    if (!open) return;
    if (!server) {
      // SPEC's words, then where the setting is, by its name in the settings page.
      void alertDialog(tFiles('files.selectorNotConfigured'), {
        detail: tFiles('files.selectorWhereToSet'),
      });
      latest.current.onClose();
      return;
    }
    const listener = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== origin) return;
      const items = parseSelectorItems(event.data, category).slice(0, max);
      if (items.length === 0) return;
      latest.current.onConfirm(items);
      latest.current.onClose();
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [open, server, origin, category, max]);

  if (!server) return null;
  return (
    <Modal
      open={open}
      width={pickerDialogWidth(narrow)}
      title={t('files.pleaseSelect')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      {blocked ? (
        <Alert
          type="warning"
          showIcon
          title={t('files.selectorBlocked', { origin: origin ?? '' })}
          action={
            <Button size="small" onClick={() => window.location.reload()}>
              {t('files.selectorReload')}
            </Button>
          }
        />
      ) : (
        <iframe
          ref={frame}
          className="atrium-fp-selector-frame"
          src={`${server}/${encodeURIComponent(category)}`}
          title={t('files.pleaseSelect')}
        />
      )}
    </Modal>
  );
}
