import { useState, type Key, type ReactNode } from 'react';
import { Button, Empty, Flex, Pagination, Spin, Table, theme, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { useSmallWindow } from '@/lib/use-media-query';
import { useTableT } from './responsive-table-i18n';

/** The column every admin table keeps its row actions in (edit, delete, ...). */
export const actionsColumnKey = 'actions';

/**
 * An admin table (issue 28 point 9). On a wide window it is antd's table. Below 600 px (SPEC 9)
 * each row is a card: every column a label and its value, one under the other, and the row's
 * actions in a line at the foot of the card, so none of them sits off-screen behind a sideways
 * scroll; a row's expandable detail opens inside its card. Columns are written once, for both.
 */
export function ResponsiveTable<T extends object>(props: TableProps<T>) {
  const small = useSmallWindow();
  if (!small) return <Table<T> {...props} />;
  return <CardRows<T> {...props} />;
}

type Column<T> = ColumnType<T> & { children?: unknown };

function keyOf<T>(record: T, index: number, rowKey: TableProps<T>['rowKey']): Key {
  if (typeof rowKey === 'function') return rowKey(record, index);
  const key = rowKey ?? 'key';
  const value = (record as Record<string, unknown>)[key as string];
  return typeof value === 'string' || typeof value === 'number' ? value : index;
}

function cellOf<T>(column: Column<T>, record: T, index: number): ReactNode {
  const path = column.dataIndex;
  const value =
    typeof path === 'string' || typeof path === 'number'
      ? (record as Record<string, unknown>)[path]
      : Array.isArray(path)
        ? path.reduce<unknown>(
            (at, part) =>
              at && typeof at === 'object'
                ? (at as Record<string, unknown>)[String(part)]
                : undefined,
            record,
          )
        : undefined;
  if (column.render) {
    const rendered = column.render(value, record, index);
    // A cell given with its own props ({children, props}) shows its children.
    return rendered && typeof rendered === 'object' && 'children' in rendered
      ? (rendered as { children: ReactNode }).children
      : (rendered as ReactNode);
  }
  return value === null || value === undefined ? null : (value as ReactNode);
}

function titleOf<T>(column: Column<T>): ReactNode {
  return typeof column.title === 'function' ? column.title({}) : column.title;
}

function CardRows<T extends object>({
  columns = [],
  dataSource,
  rowKey,
  loading,
  pagination,
  locale,
  footer,
  expandable,
}: TableProps<T>) {
  const { token } = theme.useToken();
  const t = useTableT();
  const [open, setOpen] = useState<ReadonlySet<Key>>(new Set());
  const detail = expandable?.expandedRowRender;
  const toggle = (key: Key) =>
    setOpen((keys) => {
      const next = new Set(keys);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const records = dataSource ? [...dataSource] : [];
  const shown = (columns as Column<T>[]).filter((c) => !c.hidden && !c.children);
  const fields = shown.filter((c) => c.key !== actionsColumnKey);
  const actions = shown.find((c) => c.key === actionsColumnKey);
  const spinning = typeof loading === 'object' ? Boolean(loading.spinning) : Boolean(loading);
  const emptyText = locale?.emptyText ?? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;

  return (
    <Spin spinning={spinning}>
      <Flex vertical gap={12} style={{ padding: 12 }}>
        {records.length === 0 ? (
          <div style={{ padding: 16, textAlign: 'center' }}>
            {typeof emptyText === 'function' ? emptyText() : emptyText}
          </div>
        ) : (
          <ul
            className="atrium-card-rows"
            style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 12 }}
          >
            {records.map((record, index) => {
              const key = keyOf(record, index, rowKey);
              const expanded = open.has(key);
              return (
                <li
                  key={key}
                  className="atrium-card-row"
                  style={{
                    border: `1px solid ${token.colorBorderSecondary}`,
                    borderRadius: token.borderRadiusLG,
                    background: token.colorBgContainer,
                    padding: '10px 12px',
                    minWidth: 0,
                  }}
                >
                  <dl
                    style={{
                      display: 'grid',
                      gridTemplateColumns: 'minmax(64px, max-content) minmax(0, 1fr)',
                      columnGap: 12,
                      rowGap: 6,
                      margin: 0,
                      alignItems: 'baseline',
                    }}
                  >
                    {fields.map((column, i) => (
                      <div
                        key={String(column.key ?? column.dataIndex ?? i)}
                        style={{ display: 'contents' }}
                      >
                        <dt style={{ color: token.colorTextSecondary, fontSize: 13 }}>
                          {titleOf(column)}
                        </dt>
                        <dd style={{ margin: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                          {cellOf(column, record, index)}
                        </dd>
                      </div>
                    ))}
                  </dl>
                  {detail && expanded && (
                    <div style={{ marginTop: 8 }}>{detail(record, index, 0, true)}</div>
                  )}
                  {(actions || detail) && (
                    <div
                      className="atrium-card-row-actions"
                      style={{
                        marginTop: 8,
                        paddingTop: 6,
                        borderTop: `1px solid ${token.colorSplit}`,
                        display: 'flex',
                        flexWrap: 'wrap',
                        justifyContent: 'flex-end',
                      }}
                    >
                      {detail && (
                        <Button
                          type="link"
                          size="small"
                          aria-expanded={expanded}
                          onClick={() => toggle(key)}
                        >
                          {t(expanded ? 'table.hideDetail' : 'table.showDetail')}
                        </Button>
                      )}
                      {actions && cellOf(actions, record, index)}
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {footer?.(records)}
        {pagination && (pagination.total ?? 0) > (pagination.pageSize ?? 10) && (
          <Pagination
            {...pagination}
            size="small"
            showSizeChanger={false}
            style={{ alignSelf: 'center' }}
          />
        )}
      </Flex>
    </Spin>
  );
}
