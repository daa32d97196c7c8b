import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { roomsEn } from './locales/en';
import { roomsZhCN, type RoomsKey } from './locales/zh-cn';

export type { RoomsKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', roomsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', roomsEn, true, false);

/** Typed translation hook for chat rooms; re-renders on a language change. */
export function useRoomsT(): (key: RoomsKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
