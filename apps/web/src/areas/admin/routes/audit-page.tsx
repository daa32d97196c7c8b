import { useState } from 'react';
import { Card, Flex } from 'antd';
import { useAuditList } from '@/features/audit/api/list-audit';
import { AuditFilters, type AuditFilter } from '@/features/audit/components/audit-filters';
import { AuditTable } from '@/features/audit/components/audit-table';
import { useAuditT } from '@/features/audit/i18n';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/system/audit`: every admin write, filterable and paged. */
export function AuditPage() {
  const t = useAuditT();
  return (
    <RuleGate rule="system/audit" refusal={t('audit.noPermission')}>
      <Audit />
    </RuleGate>
  );
}

function Audit() {
  const t = useAuditT();
  const [filter, setFilter] = useState<AuditFilter>({});
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const list = useAuditList({ ...filter, ...paging });

  return (
    <Flex vertical gap={16}>
      <PageHeader
        title={t('audit.title')}
        subtitle={t('audit.subtitle')}
        extra={
          <AuditFilters
            value={filter}
            onChange={(next) => {
              setFilter(next);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
          />
        }
      />
      <Card styles={{ body: { padding: 0 } }}>
        <AuditTable
          data={list.data}
          loading={list.isFetching}
          onPage={(page, pageSize) => setPaging({ page, pageSize })}
        />
      </Card>
    </Flex>
  );
}
