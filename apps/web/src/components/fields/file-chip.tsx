import type { HTMLAttributes, ReactNode, Ref } from 'react';
import { DeleteOutlined, HolderOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { assetUrl } from '@/lib/urls';
import { useFieldsT } from './i18n';
import { fileNameOf } from './paths';

export interface FileChipProps {
  path: string;
  icon: ReactNode;
  onDelete?: () => void;
  /** A sortable list's drag handle: shown only when its props are given. */
  handleRef?: Ref<HTMLButtonElement>;
  handleProps?: HTMLAttributes<HTMLButtonElement>;
  dragging?: boolean;
}

/** A file as its name (the part after the last "/"), opening in a new tab, with delete. */
export function FileChip({
  path,
  icon,
  onDelete,
  handleRef,
  handleProps,
  dragging,
}: FileChipProps) {
  const t = useFieldsT();
  const name = fileNameOf(path);
  return (
    <div className={dragging ? 'atrium-field-file is-dragging' : 'atrium-field-file'}>
      {handleProps ? (
        <button
          type="button"
          ref={handleRef}
          className="atrium-field-handle"
          aria-label={t('fields.dragItem', { name })}
          {...handleProps}
        >
          <HolderOutlined />
        </button>
      ) : null}
      <span className="atrium-field-file-icon">{icon}</span>
      <a
        className="atrium-field-file-name"
        href={assetUrl(path)}
        target="_blank"
        rel="noopener noreferrer"
        title={`${t('fields.open')}: ${path}`}
      >
        {name}
      </a>
      {onDelete ? (
        <Tooltip title={t('common.delete')}>
          <Button
            type="text"
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={`${t('common.delete')} ${name}`}
            onClick={onDelete}
          />
        </Tooltip>
      ) : null}
    </div>
  );
}
