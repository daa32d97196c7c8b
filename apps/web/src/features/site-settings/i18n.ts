import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { settingsEn } from './locales/en';
import { settingsZhCN, type SettingsKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', settingsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', settingsEn, true, false);

/** Typed translation hook for the site settings; re-renders on a language change. */
export function useSettingsT(): (key: SettingsKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
