import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { rolesEn } from './locales/en';
import { rolesZhCN, type RolesKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', rolesZhCN, true, false);
i18n.addResourceBundle('en', 'translation', rolesEn, true, false);

/** Typed translation hook for roles; re-renders on a language change. */
export function useRolesT(): (key: RolesKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
