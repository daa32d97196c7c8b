import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { fieldsEn } from './locales/en';
import { fieldsZhCN, type FieldsKey } from './locales/zh-cn';

export type { FieldsKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', fieldsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', fieldsEn, true, false);

/** Translates a field message outside React (form rules built once). */
export function tFields(key: FieldsKey | CommonKey, vars?: MessageVars): string {
  return i18n.t(key, vars);
}

/** Typed translation hook for the form fields; re-renders on a language change. */
export function useFieldsT(): (key: FieldsKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
