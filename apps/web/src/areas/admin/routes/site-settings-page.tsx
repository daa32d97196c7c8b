import { Button, Flex, Result, Skeleton } from 'antd';
import { ShareSettingsCard } from '@/features/chat/components/share-settings-card';
import { useSiteSettings } from '@/features/site-settings/api/get-site-settings';
import { SiteSettingsForm } from '@/features/site-settings/components/site-settings-form';
import { useSettingsT } from '@/features/site-settings/i18n';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/system/setting`: the site's name, look and public content. */
export function SiteSettingsPage() {
  const t = useSettingsT();
  return (
    <RuleGate rule="system/setting" refusal={t('settings.noPermission')}>
      <SiteSettings />
    </RuleGate>
  );
}

function SiteSettings() {
  const t = useSettingsT();
  const settings = useSiteSettings();
  return (
    <Flex vertical gap={16} style={{ maxWidth: 960 }}>
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      {settings.data ? (
        <SiteSettingsForm settings={settings.data} />
      ) : settings.isError ? (
        <Result
          status="warning"
          title={t('settings.loadFailed')}
          extra={
            <Button type="primary" onClick={() => void settings.refetch()}>
              {t('settings.retry')}
            </Button>
          }
        />
      ) : (
        <Skeleton active paragraph={{ rows: 10 }} />
      )}
      <ShareSettingsCard />
    </Flex>
  );
}
