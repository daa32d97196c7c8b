import { Flex, Skeleton } from 'antd';
import { uploadSettingsRule } from '@atrium/shared/contract/upload-settings';
import { useUploadSettings } from '@/features/upload-settings/api/get-upload-settings';
import { UploadSettingsForm } from '@/features/upload-settings/components/upload-settings-form';
import { useUploadSettingsT } from '@/features/upload-settings/i18n';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/system/upload`: the upload configuration of every library. */
export function UploadSettingsPage() {
  const t = useUploadSettingsT();
  return (
    <RuleGate rule={uploadSettingsRule} refusal={t('uploadSettings.noPermission')}>
      <UploadSettings />
    </RuleGate>
  );
}

function UploadSettings() {
  const t = useUploadSettingsT();
  const settings = useUploadSettings();
  return (
    <Flex vertical gap={16} style={{ maxWidth: 1200 }}>
      <PageHeader title={t('uploadSettings.title')} subtitle={t('uploadSettings.subtitle')} />
      {settings.data ? <UploadSettingsForm view={settings.data} /> : <Skeleton active />}
    </Flex>
  );
}
