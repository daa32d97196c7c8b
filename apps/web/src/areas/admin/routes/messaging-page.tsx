import { Card, Flex, Skeleton } from 'antd';
import { hasRule } from '@atrium/shared/rules';
import { usePermissionStore } from '@/stores/permission-store';
import { useMessaging } from '@/features/account/api/get-messaging';
import { LoginCaptchaCard } from '@/features/account/components/login-captcha-card';
import { MessagingSettingsForm } from '@/features/account/components/messaging-form';
import { useAccountT } from '@/features/account/i18n';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/system/message`: how verification codes are sent, and when logins need the captcha. */
export function MessagingPage() {
  const t = useAccountT();
  return (
    <RuleGate rule="system/message" refusal={t('account.noRule')}>
      <Messaging />
    </RuleGate>
  );
}

function Messaging() {
  const t = useAccountT();
  const query = useMessaging();
  const mayEditLogin = usePermissionStore((s) => hasRule(s.rules, 'system/setting'));
  return (
    <Flex vertical gap={16}>
      <PageHeader title={t('account.messagingTitle')} subtitle={t('account.messagingSubtitle')} />
      {query.data ? (
        <MessagingSettingsForm view={query.data} />
      ) : (
        <Card>
          <Skeleton active />
        </Card>
      )}
      {mayEditLogin && <LoginCaptchaCard />}
    </Flex>
  );
}
