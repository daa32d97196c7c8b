import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { uploadSettingsEn } from './locales/en';
import { uploadSettingsZhCN, type UploadSettingsKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', uploadSettingsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', uploadSettingsEn, true, false);

/** Typed translation hook for upload settings; re-renders on a language change. */
export function useUploadSettingsT(): (
  key: UploadSettingsKey | CommonKey,
  vars?: MessageVars,
) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
