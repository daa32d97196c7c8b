import { useState } from 'react';
import { Button, Card, Tag, Typography, type TableColumnsType } from 'antd';
import { MailOutlined, MessageOutlined, ReloadOutlined } from '@ant-design/icons';
import type { OutboxRecord, OutboxStatus } from '@atrium/shared/contract/accounts-rules';
import { useOutbox } from '../api/outbox-list';
import { useAccountT, type AccountKey } from '../i18n';
import { ResponsiveTable } from '@/components/responsive-table/responsive-table';

const pageSize = 20;

const statusColor: Record<OutboxStatus, string> = {
  logged: 'blue',
  sent: 'green',
  failed: 'red',
};
const statusKey: Record<OutboxStatus, AccountKey> = {
  logged: 'account.statusLogged',
  sent: 'account.statusSent',
  failed: 'account.statusFailed',
};
const transportKey: Record<string, AccountKey> = {
  log: 'account.transportLog',
  smtp: 'account.transportSmtp',
  webhook: 'account.transportWebhook',
};

/** The outbox (admin): newest first, recipients masked by the server. */
export function OutboxTable() {
  const t = useAccountT();
  const [page, setPage] = useState(1);
  const query = useOutbox(page, pageSize);

  const columns: TableColumnsType<OutboxRecord> = [
    {
      key: 'time',
      title: t('account.time'),
      dataIndex: 'createdAt',
      width: 180,
      render: (time: number) => new Date(time).toLocaleString(),
    },
    {
      key: 'channel',
      title: t('account.channel'),
      dataIndex: 'channel',
      width: 110,
      render: (channel: OutboxRecord['channel']) =>
        channel === 'email' ? (
          <span>
            <MailOutlined /> {t('account.channelEmail')}
          </span>
        ) : (
          <span>
            <MessageOutlined /> {t('account.channelPhone')}
          </span>
        ),
    },
    {
      key: 'target',
      title: t('account.recipient'),
      dataIndex: 'target',
      width: 200,
      render: (target: string) => <Typography.Text code>{target}</Typography.Text>,
    },
    {
      key: 'message',
      title: t('account.message'),
      render: (_v, row) => (
        <div style={{ minWidth: 220 }}>
          {row.subject && <Typography.Text strong>{row.subject}</Typography.Text>}
          <Typography.Paragraph
            ellipsis={{ rows: 2, expandable: true, symbol: '…' }}
            style={{ margin: 0, whiteSpace: 'pre-wrap' }}
          >
            {row.body}
          </Typography.Paragraph>
          {row.error && <Typography.Text type="danger">{row.error}</Typography.Text>}
        </div>
      ),
    },
    {
      key: 'transport',
      title: t('account.transport'),
      dataIndex: 'transport',
      width: 110,
      render: (transport: string) => {
        const key = transportKey[transport];
        return key ? t(key) : transport;
      },
    },
    {
      key: 'status',
      title: t('account.status'),
      dataIndex: 'status',
      width: 100,
      render: (status: OutboxStatus) => (
        <Tag color={statusColor[status]}>{t(statusKey[status])}</Tag>
      ),
    },
  ];

  return (
    <Card
      extra={
        <Button
          icon={<ReloadOutlined />}
          onClick={() => void query.refetch()}
          loading={query.isFetching}
        >
          {t('account.refresh')}
        </Button>
      }
      title={t('account.outboxSubtitle')}
      styles={{ header: { fontWeight: 'normal' } }}
    >
      <ResponsiveTable<OutboxRecord>
        rowKey="id"
        columns={columns}
        dataSource={query.data?.records ?? []}
        loading={query.isLoading}
        scroll={{ x: 900 }}
        locale={{ emptyText: t('account.noMessages') }}
        pagination={{
          current: page,
          pageSize: query.data?.pageSize ?? pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('account.total', { total }),
          onChange: setPage,
        }}
      />
    </Card>
  );
}
