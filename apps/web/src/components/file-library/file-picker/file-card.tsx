import { useId, type KeyboardEvent } from 'react';
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
  /** Roving tabindex: only the grid's current tile is in the Tab order. */
  current: boolean;
  onFocus: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
}

/**
 * One file of the grid. The selectable tile (a checkbox named by the file, described by its
 * type and place in the order) and the mouse shortcuts "open" and "copy link" are siblings, so
 * no control sits inside another; by keyboard those two are in the details column instead.
 */
export function FileCard({ record, checked, order, onToggle, ...props }: FileCardProps) {
  const t = useFilesT();
  const describedBy = useId();
  const type = t('files.tileType', { type: typeLabel(record) });
  return (
    <div
      className={checked ? 'atrium-fp-card is-checked' : 'atrium-fp-card'}
      data-file-id={record.id}
    >
      <div
        className="atrium-fp-tile"
        role="checkbox"
        aria-checked={checked}
        aria-label={record.filename}
        aria-describedby={describedBy}
        tabIndex={props.current ? 0 : -1}
        onClick={() => onToggle(record)}
        onFocus={props.onFocus}
        onKeyDown={props.onKeyDown}
      >
        <div className="atrium-fp-thumb">
          {isImageRecord(record) ? (
            <img
              src={record.thumbnail || record.fullPath}
              alt=""
              loading="lazy"
              draggable={false}
            />
          ) : (
            // Two PDFs are told apart by name: it shows in the tile, not only under it.
            <span className="atrium-fp-type" aria-hidden>
              <span className="atrium-fp-type-label">
                {t('files.typeFiles', { type: typeLabel(record) })}
              </span>
              <span className="atrium-fp-type-name">{record.filename}</span>
            </span>
          )}
          {record.useCount ? (
            <span className="atrium-fp-used">{t('files.usedBy', { n: record.useCount })}</span>
          ) : null}
          {checked && order !== undefined ? (
            <span className="atrium-fp-order" title={t('files.order', { n: order })} aria-hidden>
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
        </div>
      </div>
      <span id={describedBy} hidden>
        {checked && order !== undefined
          ? t('files.twoSentences', { first: type, second: t('files.order', { n: order }) })
          : type}
      </span>
      {/* Mouse shortcuts, out of the Tab order and hidden from screen readers: the details
          column offers the same two actions for the focused file. */}
      <span className="atrium-fp-card-actions" aria-hidden>
        <Tooltip title={t('files.open')}>
          <a href={record.fullPath} target="_blank" rel="noopener noreferrer" tabIndex={-1}>
            <ExportOutlined />
          </a>
        </Tooltip>
        <Tooltip title={t('files.copyLink')}>
          <button type="button" tabIndex={-1} onClick={() => void copyText(record.fullPath)}>
            <CopyOutlined />
          </button>
        </Tooltip>
      </span>
    </div>
  );
}
