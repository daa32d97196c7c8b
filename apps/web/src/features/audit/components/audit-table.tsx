import { Flex, Tag, Typography, theme } from 'antd';
import type { TableProps } from 'antd';
import dayjs from 'dayjs';
import type { AuditEntry } from '@atrium/shared/contract/audit';
import type { Paged } from '@atrium/shared/contract/paging';
import { RelativeTime } from '@/components/relative-time';
import { useAuditT } from '../i18n';
import { ResponsiveTable } from '@/components/responsive-table/responsive-table';

/** The request body as indented JSON, or as sent when it was cut short. */
function pretty(detail: string): string {
  try {
    return JSON.stringify(JSON.parse(detail), null, 2);
  } catch {
    return detail;
  }
}

export interface AuditTableProps {
  data: Paged<AuditEntry> | undefined;
  loading: boolean;
  onPage: (page: number, pageSize: number) => void;
}

export function AuditTable({ data, loading, onPage }: AuditTableProps) {
  const t = useAuditT();
  const { token } = theme.useToken();

  const columns: TableProps<AuditEntry>['columns'] = [
    {
      title: t('audit.time'),
      dataIndex: 'createdAt',
      width: 190,
      render: (_, entry) => (
        <Flex vertical>
          <span>{dayjs(entry.createdAt).format('YYYY-MM-DD HH:mm:ss')}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <RelativeTime value={entry.createdAt} />
          </Typography.Text>
        </Flex>
      ),
    },
    { title: t('audit.admin'), dataIndex: 'adminUsername', width: 150, ellipsis: true },
    {
      title: t('audit.action'),
      dataIndex: 'actionText',
      // The phrase in the page's language ("删除文件 · 图片库"); the route stays in the data.
      render: (_, entry) => <Tag style={{ marginInlineEnd: 0 }}>{entry.actionText}</Tag>,
    },
    {
      title: t('audit.target'),
      dataIndex: 'target',
      ellipsis: true,
      render: (_, entry) =>
        entry.target || <Typography.Text type="secondary">{t('audit.none')}</Typography.Text>,
    },
    { title: t('audit.ip'), dataIndex: 'ip', width: 140 },
  ];

  return (
    <ResponsiveTable<AuditEntry>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={data?.records}
      loading={loading}
      scroll={{ x: 860 }}
      expandable={{
        expandedRowRender: (entry) => (
          <Flex vertical gap={4}>
            <Typography.Text type="secondary">{t('audit.detail')}</Typography.Text>
            <pre
              style={{
                margin: 0,
                maxHeight: 320,
                overflow: 'auto',
                fontFamily: token.fontFamilyCode,
                fontSize: 12,
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-all',
              }}
            >
              {pretty(entry.detail)}
            </pre>
          </Flex>
        ),
      }}
      pagination={{
        current: data?.page ?? 1,
        pageSize: data?.pageSize ?? 20,
        total: data?.total ?? 0,
        showSizeChanger: true,
        showTotal: (total) => t('audit.total', { total }),
        onChange: onPage,
      }}
    />
  );
}
