import { useState, type CSSProperties, type HTMLAttributes, type Ref } from 'react';
import { DeleteOutlined, EyeOutlined, PictureOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import { assetUrl } from '@/lib/urls';
import { useFieldsT } from './i18n';
import { fileNameOf } from './paths';

export interface ThumbProps {
  path: string;
  size: number;
  onPreview: () => void;
  onDelete?: () => void;
  /** The whole tile, for a sortable list to move. */
  nodeRef?: Ref<HTMLDivElement>;
  style?: CSSProperties;
  dragging?: boolean;
  /** Given to the picture only, so the action buttons never start a drag. */
  handleRef?: Ref<HTMLDivElement>;
  handleProps?: HTMLAttributes<HTMLDivElement>;
}

/** A square image preview with preview and delete actions over it. */
export function Thumb({
  path,
  size,
  onPreview,
  onDelete,
  nodeRef,
  style,
  dragging,
  handleRef,
  handleProps,
}: ThumbProps) {
  const t = useFieldsT();
  const name = fileNameOf(path);
  const [broken, setBroken] = useState('');
  return (
    <div
      ref={nodeRef}
      className={dragging ? 'atrium-field-thumb is-dragging' : 'atrium-field-thumb'}
      style={{ width: size, height: size, ...style }}
      title={name}
    >
      <div ref={handleRef} className="atrium-field-thumb-picture" {...handleProps}>
        {broken === path ? (
          <PictureOutlined className="atrium-field-thumb-broken" aria-label={name} />
        ) : (
          <img src={assetUrl(path)} alt={name} draggable={false} onError={() => setBroken(path)} />
        )}
      </div>
      <div className="atrium-field-thumb-actions">
        <Tooltip title={t('fields.preview')}>
          <button type="button" aria-label={`${t('fields.preview')} ${name}`} onClick={onPreview}>
            <EyeOutlined />
          </button>
        </Tooltip>
        {onDelete ? (
          <Tooltip title={t('common.delete')}>
            <button type="button" aria-label={`${t('common.delete')} ${name}`} onClick={onDelete}>
              <DeleteOutlined />
            </button>
          </Tooltip>
        ) : null}
      </div>
    </div>
  );
}
