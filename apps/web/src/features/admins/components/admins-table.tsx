import { Button, Flex, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import type { TableProps } from 'antd';
import { CrownOutlined } from '@ant-design/icons';
import type { AdminView } from '@atrium/shared/contract/admins';
import type { Paged } from '@atrium/shared/contract/paging';
import {
  AccountTable,
  accountStateColumns,
  DisableToggle,
  type AccountTexts,
} from '@/components/account-table';
import { useDeleteAdmin } from '../api/delete-admin';
import { useSetAdminDisabled } from '../api/set-admin-disabled';
import { useAdminsT } from '../i18n';
import { confirmAction } from '@/lib/async-handler';

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
  const texts: AccountTexts = {
    status: t('admins.status'),
    enabled: t('admins.enabled'),
    disabled: t('admins.disabled'),
    lastActive: t('admins.lastActive'),
    never: t('admins.never'),
    created: t('admins.created'),
    enable: t('admins.enable'),
    disable: t('admins.disable'),
    confirmEnable: (name) => t('admins.confirmEnable', { name }),
    confirmDisable: (name) => t('admins.confirmDisable', { name }),
  };

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
    ...accountStateColumns<AdminView>(texts),
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
            <DisableToggle
              account={admin}
              texts={texts}
              refusal={reason}
              setDisabled={setDisabled.mutateAsync}
            />
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
    <AccountTable<AdminView>
      columns={columns}
      data={data}
      loading={loading}
      onPage={onPage}
      totalText={(total) => t('admins.total', { total })}
      scrollX="max-content"
    />
  );
}
