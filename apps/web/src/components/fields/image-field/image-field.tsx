import { useState } from 'react';
import { PictureOutlined, PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { UploadButton } from '@/components/file-library/upload-button/upload-button';
import { NoLibraryAccess, useLibraryAccess } from '../library-access';
import { useFieldsT } from '../i18n';
import { FieldLimits } from '../limits';
import { PathPicker } from '../path-picker';
import { PreviewDialog } from '../preview-dialog';
import { Thumb } from '../thumb';
import '../fields.css';

export interface ImageFieldProps {
  /** One image path; empty means none. */
  value?: string;
  onChange?: (value: string) => void;
  /** Preview edge, px (SPEC 9: 60). */
  size?: number;
  /** Offer a direct upload beside "Select image"; its answer's fullPath becomes the value. */
  upload?: boolean;
  /** Base address of the file library; defaults to the nearest FieldDefaultsProvider. */
  url?: string;
  external?: boolean;
  disabled?: boolean;
  id?: string;
}

/** Single image field (SPEC 2.5): preview, enlarge, delete, "Select image", optional upload. */
export function ImageField({
  value = '',
  onChange,
  size = FieldLimits.imagePreviewSize,
  upload = false,
  disabled = false,
  id,
  ...own
}: ImageFieldProps) {
  const t = useFieldsT();
  const defaults = useLibraryAccess(own);
  const [picking, setPicking] = useState(false);
  const [preview, setPreview] = useState('');

  return (
    <div className="atrium-field" id={id}>
      {value ? (
        <Thumb
          path={value}
          size={size}
          onPreview={() => setPreview(value)}
          onDelete={disabled ? undefined : () => onChange?.('')}
        />
      ) : defaults.canPick ? (
        <button
          type="button"
          className="atrium-field-empty"
          style={{ width: size, height: size }}
          // The same action as the "Select image" button beside it: one tab stop is enough.
          tabIndex={-1}
          aria-hidden
          disabled={disabled}
          onClick={() => setPicking(true)}
        >
          <PlusOutlined />
        </button>
      ) : null}
      <div className="atrium-field-column" style={{ width: 'auto' }}>
        <div className="atrium-field-actions">
          {defaults.canPick ? (
            <Button icon={<PictureOutlined />} disabled={disabled} onClick={() => setPicking(true)}>
              {t('fields.selectImage')}
            </Button>
          ) : (
            <NoLibraryAccess />
          )}
          {upload && !disabled && defaults.canUpload ? (
            <UploadButton
              url={defaults.url}
              category="image"
              config={defaults.uploadConfig}
              autoSave
              saveCategoryId={0}
              multiple={false}
              width="auto"
              onUploaded={(result) => onChange?.(result.fullPath || result.path)}
            >
              {t('fields.upload')}
            </UploadButton>
          ) : null}
        </div>
      </div>
      <PathPicker
        category="image"
        open={picking}
        max={1}
        url={defaults.url}
        external={defaults.external}
        onClose={() => setPicking(false)}
        onPick={(paths) => {
          const first = paths[0];
          if (first) onChange?.(first);
        }}
      />
      <PreviewDialog path={preview} onClose={() => setPreview('')} />
    </div>
  );
}
