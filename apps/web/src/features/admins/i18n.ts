import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { adminsEn } from './locales/en';
import { adminsZhCN, type AdminsKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', adminsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', adminsEn, true, false);

/** Typed translation hook for administrator management; re-renders on a language change. */
export function useAdminsT(): (key: AdminsKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
