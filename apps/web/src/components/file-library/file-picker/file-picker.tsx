import { Modal } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';
import type { UploadConfig } from '@/components/file-library/upload-button/upload-rules';
import { pickerDialogWidth } from './dialog-width';
import { ExternalSelector } from './external-selector';
import { PickerBody } from './picker-body';
import { useLibraryPermission, type FilePickerPermission } from './permission';
import { useThemeVars } from '@/components/file-library/upload-button/theme-vars';
import type { PickedFile } from './selection';
import { useEscapeLayer } from '@/lib/escape-layer';
import { useSmallWindow } from '@/lib/use-media-query';
import './file-picker.css';
import './picker-layout.css';

export type { FilePickerPermission } from './permission';

export interface FilePickerProps {
  /** Base address of the library (SPEC 3.5). */
  url?: string;
  /** Library key: image, file, video or audio. */
  category: string;
  mode?: 'dialog' | 'flat';
  /** Dialog mode: whether it is shown. */
  open?: boolean;
  onClose?: () => void;
  min?: number;
  max?: number;
  childKey?: string;
  /** Overrides the flags the signed-in user's rights give (see `useLibraryPermission`). */
  permission?: Partial<FilePickerPermission>;
  /** Initial state of "Reverse Select Order". */
  reverseSelectOrder?: boolean;
  /** Open `window.__selectorDialogServer/{category}` instead of the built-in picker. */
  external?: boolean;
  uploadConfig?: UploadConfig;
  /**
   * Only files of the library, no "Custom Link" tab: for callers that can use nothing else
   * (chat images and documents must be the member's own files).
   */
  libraryOnly?: boolean;
  /** Receives the selection; without it (a flat library page) there is nothing to confirm. */
  onConfirm?: (items: PickedFile[]) => void;
}

export const defaultFileManagerUrl = '/member_data/file_manager';

/** The file/media picker (SPEC 2.4): a 60% dialog or embedded flat, or an external selector. */
export function FilePicker({
  url = defaultFileManagerUrl,
  category,
  mode = 'dialog',
  open = false,
  onClose,
  min = 1,
  max = 1,
  childKey = '_child',
  reverseSelectOrder = false,
  ...props
}: FilePickerProps) {
  const t = useFilesT();
  const narrow = useSmallWindow();
  const vars = useThemeVars();
  const granted = useLibraryPermission(url);
  const permission: FilePickerPermission = { ...granted, ...props.permission };
  const close = () => onClose?.();
  useEscapeLayer(mode === 'dialog' && open && !props.external, close);

  // The external selector is another site's library: our flags do not apply to it.
  if (props.external) {
    return (
      <ExternalSelector
        category={category}
        open={open}
        max={max}
        onConfirm={(items) => props.onConfirm?.(items)}
        onClose={close}
      />
    );
  }

  // Without View nothing renders and nothing is asked of the server (SPEC 2.4, 6).
  if (!permission.view) return null;

  const body = (
    <PickerBody
      url={url}
      category={category}
      min={min}
      max={max}
      childKey={childKey}
      permission={permission}
      reverseSelectOrder={reverseSelectOrder}
      uploadConfig={props.uploadConfig}
      libraryOnly={props.libraryOnly === true}
      onConfirm={
        props.onConfirm
          ? (items) => {
              props.onConfirm?.(items);
              if (mode === 'dialog') close();
            }
          : undefined
      }
    />
  );

  if (mode === 'flat')
    return (
      <div className="atrium-fp atrium-fp-flat" style={vars}>
        {body}
      </div>
    );

  return (
    <Modal
      open={open}
      width={pickerDialogWidth(narrow)}
      title={t('files.pleaseSelect')}
      footer={null}
      onCancel={close}
      destroyOnHidden
      // As tall as the window, the footer always in view (issue 28).
      style={{ top: 16, paddingBottom: 0 }}
      className={narrow ? 'atrium-fp-modal is-narrow' : 'atrium-fp-modal'}
    >
      <div className="atrium-fp" style={vars}>
        {body}
      </div>
    </Modal>
  );
}
