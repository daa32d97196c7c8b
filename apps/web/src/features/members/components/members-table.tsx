import { Button, Flex, Space, Typography } from 'antd';
import { MailOutlined, PhoneOutlined } from '@ant-design/icons';
import type { TableProps } from 'antd';
import type { MemberView } from '@atrium/shared/contract/members';
import type { Paged } from '@atrium/shared/contract/paging';
import {
  AccountTable,
  accountStateColumns,
  DisableToggle,
  type AccountTexts,
} from '@/components/account-table';
import { useSetMemberDisabled } from '../api/set-member-disabled';
import { useMembersT } from '../i18n';

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
  const texts: AccountTexts = {
    status: t('members.status'),
    enabled: t('members.enabled'),
    disabled: t('members.disabled'),
    lastActive: t('members.lastActive'),
    never: t('members.never'),
    created: t('members.joined'),
    enable: t('members.enable'),
    disable: t('members.disable'),
    confirmEnable: (name) => t('members.confirmEnable', { name }),
    confirmDisable: (name) => t('members.confirmDisable', { name }),
  };

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
    ...accountStateColumns<MemberView>(texts),
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
          <DisableToggle account={member} texts={texts} setDisabled={setDisabled.mutateAsync} />
        </Space>
      ),
    },
  ];

  return (
    <AccountTable<MemberView>
      columns={columns}
      data={data}
      loading={loading}
      onPage={onPage}
      totalText={(total) => t('members.total', { total })}
      scrollX={960}
    />
  );
}
