import { useTranslation } from 'react-i18next';
import { i18n, type MessageVars } from '@/lib/i18n';
import { chatShareEn } from './locales/share-en';
import { chatShareZhCN, type ChatShareKey } from './locales/share-zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', chatShareZhCN, true, false);
i18n.addResourceBundle('en', 'translation', chatShareEn, true, false);

/** Typed translation hook for export, import and share links; re-renders on a language change. */
export function useChatShareT(): (key: ChatShareKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
