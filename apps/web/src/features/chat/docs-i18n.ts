import { useTranslation } from 'react-i18next';
import { i18n, type MessageVars } from '@/lib/i18n';
import { chatDocsEn } from './locales/docs-en';
import { chatDocsZhCN, type ChatDocsKey } from './locales/docs-zh-cn';

export type { ChatDocsKey } from './locales/docs-zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', chatDocsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', chatDocsEn, true, false);

/** Typed translation hook for documents as chat context; re-renders on a language change. */
export function useChatDocsT(): (key: ChatDocsKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
