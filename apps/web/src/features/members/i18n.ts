import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { membersEn } from './locales/en';
import { membersZhCN, type MembersKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', membersZhCN, true, false);
i18n.addResourceBundle('en', 'translation', membersEn, true, false);

/** Typed translation hook for member management; re-renders on a language change. */
export function useMembersT(): (key: MembersKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
