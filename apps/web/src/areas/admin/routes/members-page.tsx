import { useState } from 'react';
import { Button, Card, Flex, Input } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { MemberView } from '@atrium/shared/contract/members-admin';
import { useMemberList } from '@/features/members/api/list-members';
import { MemberCreateDialog } from '@/features/members/components/member-create-dialog';
import { MemberDrawer } from '@/features/members/components/member-drawer';
import { MemberPasswordDialog } from '@/features/members/components/member-password-dialog';
import { MembersTable } from '@/features/members/components/members-table';
import { useMembersT } from '@/features/members/i18n';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/member`: member accounts. */
export function MembersPage() {
  const t = useMembersT();
  return (
    <RuleGate rule="member" refusal={t('members.noPermission')}>
      <Members />
    </RuleGate>
  );
}

function Members() {
  const t = useMembersT();
  const [query, setQuery] = useState({ page: 1, pageSize: 20, keyword: '' });
  const list = useMemberList(query);
  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<number>();
  const [resetting, setResetting] = useState<MemberView>();

  return (
    <Flex vertical gap={16}>
      <PageHeader
        title={t('members.title')}
        subtitle={t('members.subtitle')}
        extra={
          <>
            <Input.Search
              allowClear
              placeholder={t('members.search')}
              style={{ width: 280 }}
              onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword: keyword.trim() }))}
            />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('members.new')}
            </Button>
          </>
        }
      />
      <Card styles={{ body: { padding: 0 } }}>
        <MembersTable
          data={list.data}
          loading={list.isFetching}
          onPage={(page, pageSize) => setQuery((q) => ({ ...q, page, pageSize }))}
          onView={(member) => setViewing(member.id)}
          onResetPassword={setResetting}
        />
      </Card>
      <MemberCreateDialog open={creating} onClose={() => setCreating(false)} />
      <MemberDrawer memberId={viewing} onClose={() => setViewing(undefined)} />
      <MemberPasswordDialog member={resetting} onClose={() => setResetting(undefined)} />
    </Flex>
  );
}
