import type { KeyboardEvent, MouseEvent } from 'react';
import { CheckCircleFilled, CopyOutlined, ExportOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import { copyText } from '@/lib/copy';
import { useFilesT } from '@/components/file-library/i18n';
import { isImageRecord, typeLabel, type FileRecord } from './file-record';

export interface FileCardProps {
  record: FileRecord;
  checked: boolean;
  /** Where it stands in the order the selection is handed back (1 first), when checked. */
  order?: number;
  onToggle: (record: FileRecord) => void;
}

const stop = (event: MouseEvent) => event.stopPropagation();

/** One file of the grid: clicking toggles it; the link and copy actions leave the selection alone. */
export function FileCard({ record, checked, order, onToggle }: FileCardProps) {
  const t = useFilesT();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      onToggle(record);
    }
  };
  return (
    <div
      className={checked ? 'atrium-fp-card is-checked' : 'atrium-fp-card'}
      role="checkbox"
      aria-checked={checked}
      aria-label={record.filename}
      tabIndex={0}
      onClick={() => onToggle(record)}
      onKeyDown={onKeyDown}
      data-file-id={record.id}
    >
      <div className="atrium-fp-thumb">
        {isImageRecord(record) ? (
          <img src={record.thumbnail || record.fullPath} alt="" loading="lazy" draggable={false} />
        ) : (
          // Two PDFs are told apart by name: it shows in the tile, not only under it.
          <span className="atrium-fp-type">
            <span className="atrium-fp-type-label">
              {t('files.typeFiles', { type: typeLabel(record) })}
            </span>
            <span className="atrium-fp-type-name" aria-hidden>
              {record.filename}
            </span>
          </span>
        )}
        {record.useCount ? (
          <span className="atrium-fp-used">{t('files.usedBy', { n: record.useCount })}</span>
        ) : null}
        {checked && order !== undefined ? (
          <span className="atrium-fp-order" title={t('files.order', { n: order })}>
            {order}
          </span>
        ) : checked ? (
          <CheckCircleFilled className="atrium-fp-check" aria-hidden />
        ) : null}
      </div>
      <div className="atrium-fp-meta">
        <span className="atrium-fp-name" title={record.filename}>
          {record.filename}
        </span>
        <span className="atrium-fp-card-actions">
          <Tooltip title={t('files.open')}>
            <a
              href={record.fullPath}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t('files.open')}
              onClick={stop}
            >
              <ExportOutlined />
            </a>
          </Tooltip>
          <Tooltip title={t('files.copyLink')}>
            <button
              type="button"
              aria-label={t('files.copyLink')}
              onClick={(event) => {
                stop(event);
                void copyText(record.fullPath);
              }}
            >
              <CopyOutlined />
            </button>
          </Tooltip>
        </span>
      </div>
    </div>
  );
}
