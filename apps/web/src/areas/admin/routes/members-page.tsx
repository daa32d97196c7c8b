import { useState } from 'react';
import type { MemberView } from '@atrium/shared/contract/members';
import { useMemberList } from '@/features/members/api/list-members';
import { MemberCreateDialog } from '@/features/members/components/member-create-dialog';
import { MemberDrawer } from '@/features/members/components/member-drawer';
import { MemberPasswordDialog } from '@/features/members/components/member-password-dialog';
import { MembersTable } from '@/features/members/components/members-table';
import { useMembersT } from '@/features/members/i18n';
import { AccountListPage, useAccountQuery } from './account-list-page';
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
  const { query, search, turn } = useAccountQuery();
  const list = useMemberList(query);
  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<number>();
  const [resetting, setResetting] = useState<MemberView>();

  return (
    <AccountListPage
      title={t('members.title')}
      subtitle={t('members.subtitle')}
      searchPlaceholder={t('members.search')}
      newLabel={t('members.new')}
      onSearch={search}
      onNew={() => setCreating(true)}
      table={
        <MembersTable
          data={list.data}
          loading={list.isFetching}
          onPage={turn}
          onView={(member) => setViewing(member.id)}
          onResetPassword={setResetting}
        />
      }
    >
      <MemberCreateDialog open={creating} onClose={() => setCreating(false)} />
      <MemberDrawer memberId={viewing} onClose={() => setViewing(undefined)} />
      <MemberPasswordDialog member={resetting} onClose={() => setResetting(undefined)} />
    </AccountListPage>
  );
}
