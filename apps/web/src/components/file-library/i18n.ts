import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { filesEn } from './locales/en';
import { filesZhCN, type FilesKey } from './locales/zh-cn';

export type { FilesKey } from './locales/zh-cn';

// Merged into the shared namespace rather than the core's locale files, so both can grow apart.
i18n.addResourceBundle('zh-CN', 'translation', filesZhCN, true, false);
i18n.addResourceBundle('en', 'translation', filesEn, true, false);

/** Translates a file-library message outside React. */
export function tFiles(key: FilesKey | CommonKey, vars?: MessageVars): string {
  return i18n.t(key, vars);
}

/** Typed translation hook for the file library; re-renders on a language change. */
export function useFilesT(): (key: FilesKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
