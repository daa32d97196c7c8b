import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { accountEn } from './locales/en';
import { accountZhCN, type AccountKey } from './locales/zh-cn';

export type { AccountKey } from './locales/zh-cn';

// Merged into the shared namespace, like the other features' messages.
i18n.addResourceBundle('zh-CN', 'translation', accountZhCN, true, false);
i18n.addResourceBundle('en', 'translation', accountEn, true, false);

/** Typed translation hook for account messages; re-renders on a language change. */
export function useAccountT(): (key: AccountKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
