import type { ReactNode } from 'react';
import { Badge, Button, Popconfirm, Tooltip, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import type { Paged } from '@atrium/shared/contract/paging';
import { RelativeTime } from '@/components/relative-time';
import { ResponsiveTable } from '@/components/responsive-table/responsive-table';
import { confirmAction } from '@/lib/async-handler';

/** What every account list shows of a row (admins and members alike). */
export interface AccountRow {
  id: number;
  username: string;
  disabled: boolean;
  lastActiveAt: number | null;
  createdAt: number;
}

/** The texts the shared columns and actions take from their feature's catalogue. */
export interface AccountTexts {
  status: string;
  enabled: string;
  disabled: string;
  lastActive: string;
  never: string;
  created: string;
  enable: string;
  disable: string;
  confirmEnable: (name: string) => string;
  confirmDisable: (name: string) => string;
}

/** Status, last active and created: the columns every account list ends its facts with. */
export function accountStateColumns<T extends AccountRow>(
  texts: AccountTexts,
): NonNullable<TableProps<T>['columns']> {
  return [
    {
      title: texts.status,
      dataIndex: 'disabled',
      width: 110,
      render: (_, row) =>
        row.disabled ? (
          <Badge status="error" text={texts.disabled} />
        ) : (
          <Badge status="success" text={texts.enabled} />
        ),
    },
    {
      title: texts.lastActive,
      dataIndex: 'lastActiveAt',
      width: 140,
      render: (_, row) =>
        row.lastActiveAt === null ? (
          <Typography.Text type="secondary">{texts.never}</Typography.Text>
        ) : (
          <RelativeTime value={row.lastActiveAt} />
        ),
    },
    {
      title: texts.created,
      dataIndex: 'createdAt',
      width: 120,
      render: (_, row) => dayjs(row.createdAt).format('YYYY-MM-DD'),
    },
  ];
}

export interface DisableToggleProps {
  account: AccountRow;
  texts: AccountTexts;
  /** Why this account can't be disabled (the button is then off, the reason its tooltip). */
  refusal?: string;
  setDisabled: (input: { id: number; disabled: boolean }) => Promise<unknown>;
}

/** Enable or disable an account, after a question naming it. */
export function DisableToggle({ account, texts, refusal, setDisabled }: DisableToggleProps) {
  if (account.disabled)
    return (
      <Popconfirm
        title={texts.confirmEnable(account.username)}
        onConfirm={confirmAction(() => setDisabled({ id: account.id, disabled: false }))}
      >
        <Button type="link" size="small">
          {texts.enable}
        </Button>
      </Popconfirm>
    );
  return (
    <Tooltip title={refusal}>
      <Popconfirm
        title={texts.confirmDisable(account.username)}
        disabled={refusal !== undefined}
        okButtonProps={{ danger: true }}
        onConfirm={confirmAction(() => setDisabled({ id: account.id, disabled: true }))}
      >
        <Button type="link" size="small" danger disabled={refusal !== undefined}>
          {texts.disable}
        </Button>
      </Popconfirm>
    </Tooltip>
  );
}

export interface AccountTableProps<T extends AccountRow> {
  columns: TableProps<T>['columns'];
  data: Paged<T> | undefined;
  loading: boolean;
  onPage: (page: number, pageSize: number) => void;
  totalText: (total: number) => ReactNode;
  scrollX: number | 'max-content';
}

/** A page of accounts, 20 a page unless the admin picks another size. */
export function AccountTable<T extends AccountRow>(props: AccountTableProps<T>) {
  return (
    <ResponsiveTable<T>
      rowKey="id"
      columns={props.columns}
      dataSource={props.data?.records}
      loading={props.loading}
      scroll={{ x: props.scrollX }}
      pagination={{
        current: props.data?.page ?? 1,
        pageSize: props.data?.pageSize ?? 20,
        total: props.data?.total ?? 0,
        showSizeChanger: true,
        showTotal: props.totalText,
        onChange: props.onPage,
      }}
    />
  );
}
