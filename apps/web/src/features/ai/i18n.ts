import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { aiEn } from './locales/en';
import { aiZhCN, type AiKey } from './locales/zh-cn';

export type { AiKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', aiZhCN, true, false);
i18n.addResourceBundle('en', 'translation', aiEn, true, false);

/** Typed translation hook for AI providers and models; re-renders on a language change. */
export function useAiT(): (key: AiKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
