import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { chatEn } from './locales/en';
import { chatZhCN, type ChatKey } from './locales/zh-cn';

export type { ChatKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', chatZhCN, true, false);
i18n.addResourceBundle('en', 'translation', chatEn, true, false);

/** Typed translation hook for chat and usage; re-renders on a language change. */
export function useChatT(): (key: ChatKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
