import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { unsavedEn } from './locales/en';
import { unsavedZhCN, type UnsavedKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', unsavedZhCN, true, false);
i18n.addResourceBundle('en', 'translation', unsavedEn, true, false);

/** Translates an unsaved-edits message (asked outside React, when the question is put). */
export function tUnsaved(key: UnsavedKey | CommonKey, vars?: MessageVars): string {
  return i18n.t(key, vars);
}
