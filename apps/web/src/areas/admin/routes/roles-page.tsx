import { useState } from 'react';
import { Card, Col, Flex, Row } from 'antd';
import { useRoleList } from '@/features/roles/api/list-roles';
import { RoleEditor } from '@/features/roles/components/role-editor';
import { RoleList } from '@/features/roles/components/role-list';
import { useRolesT } from '@/features/roles/i18n';
import { afterDiscard } from '@/components/unsaved-changes/unsaved-changes';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/system/role`: roles and the rules they hold. */
export function RolesPage() {
  const t = useRolesT();
  return (
    <RuleGate rule="system/role" refusal={t('roles.noPermission')}>
      <Roles />
    </RuleGate>
  );
}

function Roles() {
  const t = useRolesT();
  const list = useRoleList();
  const [chosen, setChosen] = useState<number | 'new'>();
  const roles = list.data?.records;
  // Until the admin picks one, the first role is open (or a new one when there is none).
  const selected = chosen ?? roles?.[0]?.id ?? (roles ? 'new' : undefined);
  const role = typeof selected === 'number' ? roles?.find((r) => r.id === selected) : undefined;

  return (
    <Flex vertical gap={16}>
      <PageHeader title={t('roles.title')} subtitle={t('roles.subtitle')} />
      <Row gutter={[16, 16]} align="stretch">
        <Col xs={24} md={8} xl={6}>
          <Card title={t('roles.list')} style={{ height: '100%' }}>
            <RoleList
              roles={roles}
              loading={list.isPending}
              selected={selected}
              onSelect={(id) => {
                if (id !== selected) afterDiscard(() => setChosen(id));
              }}
            />
          </Card>
        </Col>
        <Col xs={24} md={16} xl={18}>
          <Card style={{ height: '100%' }}>
            {selected !== undefined && (selected === 'new' || role) && (
              <RoleEditor
                key={`${selected}:${role?.updatedAt ?? 0}`}
                role={role}
                onSaved={(saved) => setChosen(saved.id)}
                onDeleted={() => setChosen(undefined)}
              />
            )}
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}
