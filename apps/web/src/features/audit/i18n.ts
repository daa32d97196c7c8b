import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { auditEn } from './locales/en';
import { auditZhCN, type AuditKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', auditZhCN, true, false);
i18n.addResourceBundle('en', 'translation', auditEn, true, false);

/** Typed translation hook for the audit log; re-renders on a language change. */
export function useAuditT(): (key: AuditKey | CommonKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
