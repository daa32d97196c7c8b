import { Flex } from 'antd';
import { OutboxTable } from '@/features/account/components/outbox-table';
import { useAccountT } from '@/features/account/i18n';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/system/outbox`: verification codes and test messages the server sent. */
export function OutboxPage() {
  const t = useAccountT();
  return (
    <RuleGate rule="system/outbox" refusal={t('account.noRule')}>
      <Flex vertical gap={16}>
        <PageHeader title={t('account.outboxTitle')} />
        <OutboxTable />
      </Flex>
    </RuleGate>
  );
}
