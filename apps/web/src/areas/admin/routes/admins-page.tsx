import { useState } from 'react';
import { Button, Card, Flex, Input } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { AdminView } from '@atrium/shared/contract/admins';
import { useUserStore } from '@/stores/user-store';
import { useAdminList } from '@/features/admins/api/list-admins';
import { AdminFormDialog } from '@/features/admins/components/admin-form-dialog';
import { AdminsTable } from '@/features/admins/components/admins-table';
import { ResetPasswordDialog } from '@/features/admins/components/reset-password-dialog';
import { useAdminsT } from '@/features/admins/i18n';
import { PageHeader } from './page-header';
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
  const [query, setQuery] = useState({ page: 1, pageSize: 20, keyword: '' });
  const list = useAdminList(query);
  const [form, setForm] = useState<{ open: boolean; admin?: AdminView }>({ open: false });
  const [resetting, setResetting] = useState<AdminView>();

  return (
    <Flex vertical gap={16}>
      <PageHeader
        title={t('admins.title')}
        subtitle={t('admins.subtitle')}
        extra={
          <>
            <Input.Search
              allowClear
              placeholder={t('admins.search')}
              style={{ width: 260 }}
              onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword: keyword.trim() }))}
            />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ open: true })}>
              {t('admins.new')}
            </Button>
          </>
        }
      />
      <Card styles={{ body: { padding: 0 } }}>
        <AdminsTable
          data={list.data}
          loading={list.isFetching}
          selfId={selfId}
          onPage={(page, pageSize) => setQuery((q) => ({ ...q, page, pageSize }))}
          onEdit={(admin) => setForm({ open: true, admin })}
          onResetPassword={setResetting}
        />
      </Card>
      <AdminFormDialog
        open={form.open}
        admin={form.admin}
        onClose={() => setForm({ open: false })}
      />
      <ResetPasswordDialog admin={resetting} onClose={() => setResetting(undefined)} />
    </Flex>
  );
}
