import { Flex } from 'antd';
import { UsagePanel } from '@/features/chat/components/usage-panel';
import { useChatT } from '@/features/chat/i18n';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/aigc/usage`: chat usage by day, room and member, and the daily quotas. */
export function AigcUsagePage() {
  const t = useChatT();
  return (
    <RuleGate rule="aigc/usage" refusal={t('usage.noPermission')}>
      <Flex vertical gap={16}>
        <PageHeader title={t('usage.title')} subtitle={t('usage.subtitle')} />
        <UsagePanel />
      </Flex>
    </RuleGate>
  );
}
