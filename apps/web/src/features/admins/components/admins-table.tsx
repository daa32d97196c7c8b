import { Badge, Button, Flex, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import type { TableProps } from 'antd';
import { CrownOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { AdminView } from '@atrium/shared/contract/admins';
import type { Paged } from '@atrium/shared/contract/paging';
import { RelativeTime } from '@/components/relative-time';
import { useDeleteAdmin } from '../api/delete-admin';
import { useSetAdminDisabled } from '../api/set-admin-disabled';
import { useAdminsT } from '../i18n';
import { confirmAction } from '@/lib/async-handler';
import { ResponsiveTable } from '@/components/responsive-table/responsive-table';

/** The API client already told the user why a call failed; the dialog just closes. */

export interface AdminsTableProps {
  data: Paged<AdminView> | undefined;
  loading: boolean;
  /** The signed-in administrator, who can't disable or delete themselves. */
  selfId: number;
  onPage: (page: number, pageSize: number) => void;
  onEdit: (admin: AdminView) => void;
  onResetPassword: (admin: AdminView) => void;
}

export function AdminsTable(props: AdminsTableProps) {
  const { data, loading, selfId, onPage, onEdit, onResetPassword } = props;
  const t = useAdminsT();
  const setDisabled = useSetAdminDisabled();
  const remove = useDeleteAdmin();

  const protectedReason = (admin: AdminView) => {
    if (admin.id === selfId) return t('admins.selfProtected');
    if (admin.isFounder) return t('admins.founderProtected');
    return undefined;
  };

  const columns: TableProps<AdminView>['columns'] = [
    {
      title: t('admins.username'),
      dataIndex: 'username',
      // Wide enough for a name and its tags: a squeezed column broke names letter by letter.
      width: 220,
      render: (_, admin) => (
        <Flex vertical>
          <Space size={6} wrap>
            <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
              {admin.username}
            </Typography.Text>
            {admin.isFounder && (
              <Tag icon={<CrownOutlined />} color="gold">
                {t('admins.founder')}
              </Tag>
            )}
            {admin.id === selfId && <Tag color="blue">{t('admins.you')}</Tag>}
          </Space>
          {admin.nickname !== admin.username && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {admin.nickname}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: t('admins.roles'),
      dataIndex: 'roles',
      width: 200,
      render: (_, admin) => {
        if (admin.isFounder) return <Tag color="gold">{t('admins.allRules')}</Tag>;
        if (admin.roles.length === 0) {
          return <Typography.Text type="secondary">{t('admins.noRoles')}</Typography.Text>;
        }
        return (
          <Flex wrap gap={4}>
            {admin.roles.map((role) => (
              <Tag key={role.id} style={{ marginInlineEnd: 0 }}>
                {role.name}
              </Tag>
            ))}
          </Flex>
        );
      },
    },
    {
      title: t('admins.status'),
      dataIndex: 'disabled',
      width: 110,
      render: (_, admin) =>
        admin.disabled ? (
          <Badge status="error" text={t('admins.disabled')} />
        ) : (
          <Badge status="success" text={t('admins.enabled')} />
        ),
    },
    {
      title: t('admins.lastActive'),
      dataIndex: 'lastActiveAt',
      width: 140,
      render: (_, admin) =>
        admin.lastActiveAt === null ? (
          <Typography.Text type="secondary">{t('admins.never')}</Typography.Text>
        ) : (
          <RelativeTime value={admin.lastActiveAt} />
        ),
    },
    {
      title: t('admins.created'),
      dataIndex: 'createdAt',
      width: 120,
      render: (_, admin) => dayjs(admin.createdAt).format('YYYY-MM-DD'),
    },
    {
      title: t('admins.actions'),
      key: 'actions',
      width: 300,
      render: (_, admin) => {
        const reason = protectedReason(admin);
        return (
          <Space size={0} wrap>
            <Button type="link" size="small" onClick={() => onEdit(admin)}>
              {t('common.edit')}
            </Button>
            <Button type="link" size="small" onClick={() => onResetPassword(admin)}>
              {t('admins.resetPassword')}
            </Button>
            {admin.disabled ? (
              <Popconfirm
                title={t('admins.confirmEnable', { name: admin.username })}
                onConfirm={confirmAction(() =>
                  setDisabled.mutateAsync({ id: admin.id, disabled: false }),
                )}
              >
                <Button type="link" size="small">
                  {t('admins.enable')}
                </Button>
              </Popconfirm>
            ) : (
              <Tooltip title={reason}>
                <Popconfirm
                  title={t('admins.confirmDisable', { name: admin.username })}
                  disabled={reason !== undefined}
                  onConfirm={confirmAction(() =>
                    setDisabled.mutateAsync({ id: admin.id, disabled: true }),
                  )}
                >
                  <Button type="link" size="small" danger disabled={reason !== undefined}>
                    {t('admins.disable')}
                  </Button>
                </Popconfirm>
              </Tooltip>
            )}
            <Tooltip title={reason}>
              <Popconfirm
                title={t('admins.confirmDelete', { name: admin.username })}
                disabled={reason !== undefined}
                okButtonProps={{ danger: true }}
                onConfirm={confirmAction(() => remove.mutateAsync(admin.id))}
              >
                <Button type="link" size="small" danger disabled={reason !== undefined}>
                  {t('common.delete')}
                </Button>
              </Popconfirm>
            </Tooltip>
          </Space>
        );
      },
    },
  ];

  return (
    <ResponsiveTable<AdminView>
      rowKey="id"
      columns={columns}
      dataSource={data?.records}
      loading={loading}
      scroll={{ x: 'max-content' }}
      pagination={{
        current: data?.page ?? 1,
        pageSize: data?.pageSize ?? 20,
        total: data?.total ?? 0,
        showSizeChanger: true,
        showTotal: (total) => t('admins.total', { total }),
        onChange: onPage,
      }}
    />
  );
}
