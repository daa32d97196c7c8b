import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { ConfigProvider } from 'antd';
import { useLibraryAccess } from '../library-access';
import { useFieldsT } from '../i18n';
import { lazyPart, PartBoundary } from '../lazy-part';
import { FieldLimits } from '../limits';
import type { RichTextHandle } from './rich-text-handle';
import './rich-text.css';

/** The editor's code, fetched when a field first shows it and shared by every field after. */
const useEditor = lazyPart(async () => ({
  default: (await import('./rich-text-editor')).RichTextEditor,
}));

/** Fields mounted from now on load the editor's code first (lazyPart's `forget`). */
export const forgetRichTextEditor = useEditor.forget;

export interface RichTextFieldProps {
  /** HTML; empty means no content. */
  value?: string;
  onChange?: (html: string) => void;
  placeholder?: string;
  /** Height of the writing area, px. */
  minHeight?: number;
  disabled?: boolean;
  id?: string;
  /** File library of the image button; defaults to the nearest FieldDefaultsProvider. */
  url?: string;
  external?: boolean;
  /** The editor's accessible name (a label's `for` doesn't name a contenteditable). */
  'aria-label'?: string;
  /** Set by the Form.Item around it. */
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
}

/**
 * Rich-text editor field (SPEC 2.6): TipTap, loaded on demand, in step with the form value both
 * ways. A value that arrives before the editor is ready is tried again every 100 ms until it
 * takes. Its popups (menus, link dialog, image picker) are layered at z-index 10000, above the
 * drawer or dialog the form may sit in.
 */
export function RichTextField({
  value = '',
  onChange,
  placeholder,
  minHeight = 200,
  disabled,
  id,
  'aria-label': ariaLabel,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
  'aria-required': required,
  ...own
}: RichTextFieldProps) {
  const t = useFieldsT();
  const defaults = useLibraryAccess(own);
  const [Editor, reloadEditor] = useEditor();
  const handle = useRef<RichTextHandle | null>(null);
  /** The HTML the editor holds as far as the form knows: last applied or last typed. */
  const shown = useRef<string | null>(null);
  /** Bumped when an editor goes away, so the next one gets the value again. */
  const [generation, setGeneration] = useState(0);
  const latestOnChange = useRef(onChange);
  useEffect(() => {
    latestOnChange.current = onChange;
  });

  useEffect(() => {
    if (shown.current === value) return;
    const apply = () => {
      if (!handle.current) return false;
      handle.current.setHTML(value);
      shown.current = value;
      return true;
    };
    if (apply()) return;
    const timer = window.setInterval(() => {
      if (apply()) window.clearInterval(timer);
    }, FieldLimits.richRetryMs);
    return () => window.clearInterval(timer);
  }, [value, generation]);

  const onReady = useCallback((ready: RichTextHandle) => {
    handle.current = ready;
  }, []);

  // Only the editor in use going away matters (a replaced one may go after its successor came).
  const onGone = useCallback((gone: RichTextHandle) => {
    if (handle.current !== gone) return;
    handle.current = null;
    shown.current = null;
    setGeneration((g) => g + 1);
  }, []);

  const onEdit = useCallback((html: string) => {
    shown.current = html;
    latestOnChange.current?.(html);
  }, []);

  const loading = (
    // The editor's frame: a toolbar's row and the writing area's height, so nothing below it
    // moves when the editor comes (a toolbar wrapped on a narrow screen adds its second row).
    <div className="atrium-rte atrium-rte-loading" aria-busy="true">
      <div className="atrium-rte-toolbar" />
      <div className="atrium-rte-loading-body" style={{ minHeight }}>
        {t('fields.editorLoading')}
      </div>
    </div>
  );

  return (
    <ConfigProvider theme={{ token: { zIndexPopupBase: FieldLimits.richZIndex } }}>
      <PartBoundary reload={reloadEditor}>
        <Suspense fallback={loading}>
          <Editor
            onReady={onReady}
            onGone={onGone}
            onChange={onEdit}
            placeholder={placeholder}
            minHeight={minHeight}
            disabled={disabled}
            id={id}
            aria={{
              'aria-label': ariaLabel,
              'aria-describedby': describedBy,
              'aria-invalid': invalid === undefined ? undefined : String(invalid),
              'aria-required': required === undefined ? undefined : String(required),
            }}
            url={defaults.url}
            external={defaults.external}
            canPickImages={defaults.canPick}
          />
        </Suspense>
      </PartBoundary>
    </ConfigProvider>
  );
}
