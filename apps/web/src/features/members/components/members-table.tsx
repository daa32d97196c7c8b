import { Badge, Button, Flex, Popconfirm, Space, Typography } from 'antd';
import { MailOutlined, PhoneOutlined } from '@ant-design/icons';
import type { TableProps } from 'antd';
import dayjs from 'dayjs';
import type { MemberView } from '@atrium/shared/contract/members-admin';
import type { Paged } from '@atrium/shared/contract/paging';
import { RelativeTime } from '@/components/relative-time';
import { useSetMemberDisabled } from '../api/set-member-disabled';
import { useMembersT } from '../i18n';
import { confirmAction } from '@/lib/async-handler';
import { ResponsiveTable } from '@/components/responsive-table/responsive-table';

/** The API client already told the user why a call failed; the popover just closes. */

export interface MembersTableProps {
  data: Paged<MemberView> | undefined;
  loading: boolean;
  onPage: (page: number, pageSize: number) => void;
  onView: (member: MemberView) => void;
  onResetPassword: (member: MemberView) => void;
}

export function MembersTable({
  data,
  loading,
  onPage,
  onView,
  onResetPassword,
}: MembersTableProps) {
  const t = useMembersT();
  const setDisabled = useSetMemberDisabled();

  const columns: TableProps<MemberView>['columns'] = [
    {
      title: t('members.member'),
      dataIndex: 'username',
      render: (_, member) => (
        <Flex vertical align="flex-start">
          <Button type="link" style={{ padding: 0, height: 'auto' }} onClick={() => onView(member)}>
            {member.username}
          </Button>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            #{member.id}
            {member.nickname && member.nickname !== member.username ? ` · ${member.nickname}` : ''}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('members.contact'),
      key: 'contact',
      render: (_, member) =>
        member.email || member.phone ? (
          <Flex vertical>
            {member.email && (
              <Typography.Text ellipsis>
                <MailOutlined style={{ marginInlineEnd: 6, opacity: 0.6 }} />
                {member.email}
              </Typography.Text>
            )}
            {member.phone && (
              <Typography.Text>
                <PhoneOutlined style={{ marginInlineEnd: 6, opacity: 0.6 }} />
                {member.phone}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('members.none')}</Typography.Text>
        ),
    },
    {
      title: t('members.status'),
      dataIndex: 'disabled',
      width: 100,
      render: (_, member) =>
        member.disabled ? (
          <Badge status="error" text={t('members.disabled')} />
        ) : (
          <Badge status="success" text={t('members.enabled')} />
        ),
    },
    {
      title: t('members.lastActive'),
      dataIndex: 'lastActiveAt',
      width: 130,
      render: (_, member) =>
        member.lastActiveAt === null ? (
          <Typography.Text type="secondary">{t('members.never')}</Typography.Text>
        ) : (
          <RelativeTime value={member.lastActiveAt} />
        ),
    },
    {
      title: t('members.joined'),
      dataIndex: 'createdAt',
      width: 110,
      render: (_, member) => dayjs(member.createdAt).format('YYYY-MM-DD'),
    },
    {
      title: t('members.actions'),
      key: 'actions',
      width: 230,
      render: (_, member) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => onView(member)}>
            {t('members.view')}
          </Button>
          <Button type="link" size="small" onClick={() => onResetPassword(member)}>
            {t('members.resetPassword')}
          </Button>
          {member.disabled ? (
            <Popconfirm
              title={t('members.confirmEnable', { name: member.username })}
              onConfirm={confirmAction(() =>
                setDisabled.mutateAsync({ id: member.id, disabled: false }),
              )}
            >
              <Button type="link" size="small">
                {t('members.enable')}
              </Button>
            </Popconfirm>
          ) : (
            <Popconfirm
              title={t('members.confirmDisable', { name: member.username })}
              okButtonProps={{ danger: true }}
              onConfirm={confirmAction(() =>
                setDisabled.mutateAsync({ id: member.id, disabled: true }),
              )}
            >
              <Button type="link" size="small" danger>
                {t('members.disable')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <ResponsiveTable<MemberView>
      rowKey="id"
      columns={columns}
      dataSource={data?.records}
      loading={loading}
      scroll={{ x: 960 }}
      pagination={{
        current: data?.page ?? 1,
        pageSize: data?.pageSize ?? 20,
        total: data?.total ?? 0,
        showSizeChanger: true,
        showTotal: (total) => t('members.total', { total }),
        onChange: onPage,
      }}
    />
  );
}
