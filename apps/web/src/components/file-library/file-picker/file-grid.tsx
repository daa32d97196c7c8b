import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Empty, Pagination, Spin } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';
import { FileCard } from './file-card';
import type { FileRecord } from './file-record';
import { gridColumns, tileKeyAction } from './tile-keys';

export interface FileGridProps {
  records: readonly FileRecord[];
  checkedIds: ReadonlySet<number>;
  /** Numbers shown on checked tiles: the order the selection is handed back in. */
  order?: ReadonlyMap<number, number>;
  onToggle: (record: FileRecord) => void;
  loading: boolean;
  page: number;
  pageSize: number;
  total: number;
  /** The total is a lower bound: more matches follow (a search counts only some pages ahead). */
  totalCapped?: boolean;
  onPage: (page: number) => void;
  /** Enter on a tile confirms the selection; without it (a flat library) Enter toggles. */
  onConfirm?: () => void;
}

/**
 * The paged grid: 2, 4 or 6 columns (SPEC 9) by the width the picker has, not the screen's, so
 * tiles in the 60 % dialog stay wide enough to read a name.
 */
export function FileGrid(props: FileGridProps) {
  const t = useFilesT();
  const hint = useId();
  const tiles = useRef<HTMLDivElement>(null);
  // Roving tabindex: one tile in the Tab order, arrows move it (kept in range as pages change).
  const [current, setCurrent] = useState(0);
  const focused = Math.min(current, Math.max(props.records.length - 1, 0));
  const onKeyDown =
    (index: number, record: FileRecord) => (event: KeyboardEvent<HTMLDivElement>) => {
      const columns = gridColumns(tiles.current);
      const action = tileKeyAction(
        event.key,
        index,
        props.records.length,
        columns,
        props.onConfirm !== undefined,
      );
      if (action.kind === 'none') return;
      event.preventDefault();
      if (action.kind === 'move') {
        setCurrent(action.index);
        tiles.current?.querySelectorAll<HTMLElement>('[role="checkbox"]')[action.index]?.focus();
      } else if (action.kind === 'toggle') props.onToggle(record);
      else props.onConfirm?.();
    };
  return (
    <Spin spinning={props.loading} className="atrium-fp-spin">
      <div className="atrium-fp-grid" aria-busy={props.loading}>
        {props.records.length === 0 ? (
          // "No Records" only once the list has answered, never behind the spinner.
          props.loading ? (
            <div className="atrium-fp-grid-waiting" />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('files.noRecords')} />
          )
        ) : (
          <div
            ref={tiles}
            className="atrium-fp-tiles"
            role="group"
            aria-label={t('files.tiles')}
            aria-describedby={hint}
          >
            <span id={hint} hidden>
              {t(props.onConfirm ? 'files.tilesHint' : 'files.tilesHintFlat')}
            </span>
            {props.records.map((record, index) => (
              <FileCard
                key={record.id}
                record={record}
                checked={props.checkedIds.has(record.id)}
                order={props.order?.get(record.id)}
                onToggle={props.onToggle}
                current={index === focused}
                onFocus={() => setCurrent(index)}
                onKeyDown={onKeyDown(index, record)}
              />
            ))}
          </div>
        )}
      </div>
      {props.total > 0 ? (
        <Pagination
          className="atrium-fp-pagination"
          size="small"
          current={props.page}
          pageSize={props.pageSize}
          total={props.total}
          showSizeChanger={false}
          showTotal={(total) =>
            props.totalCapped ? t('files.totalAtLeast', { total }) : t('files.total', { total })
          }
          onChange={props.onPage}
        />
      ) : null}
    </Spin>
  );
}
