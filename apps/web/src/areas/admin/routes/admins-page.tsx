import { useState } from 'react';
import type { AdminView } from '@atrium/shared/contract/admins';
import { useUserStore } from '@/stores/user-store';
import { useAdminList } from '@/features/admins/api/list-admins';
import { AdminFormDialog } from '@/features/admins/components/admin-form-dialog';
import { AdminsTable } from '@/features/admins/components/admins-table';
import { ResetPasswordDialog } from '@/features/admins/components/reset-password-dialog';
import { useAdminsT } from '@/features/admins/i18n';
import { AccountListPage, useAccountQuery } from './account-list-page';
import { RuleGate } from './rule-gate';

/** `#/system/admin`: administrator accounts. */
export function AdminsPage() {
  const t = useAdminsT();
  return (
    <RuleGate rule="system/admin" refusal={t('admins.noPermission')}>
      <Admins />
    </RuleGate>
  );
}

function Admins() {
  const t = useAdminsT();
  const selfId = useUserStore((s) => s.user.id);
  const { query, search, turn } = useAccountQuery();
  const list = useAdminList(query);
  const [form, setForm] = useState<{ open: boolean; admin?: AdminView }>({ open: false });
  const [resetting, setResetting] = useState<AdminView>();

  return (
    <AccountListPage
      title={t('admins.title')}
      subtitle={t('admins.subtitle')}
      searchPlaceholder={t('admins.search')}
      newLabel={t('admins.new')}
      onSearch={search}
      onNew={() => setForm({ open: true })}
      table={
        <AdminsTable
          data={list.data}
          loading={list.isFetching}
          selfId={selfId}
          onPage={turn}
          onEdit={(admin) => setForm({ open: true, admin })}
          onResetPassword={setResetting}
        />
      }
    >
      <AdminFormDialog
        open={form.open}
        admin={form.admin}
        onClose={() => setForm({ open: false })}
      />
      <ResetPasswordDialog admin={resetting} onClose={() => setResetting(undefined)} />
    </AccountListPage>
  );
}
