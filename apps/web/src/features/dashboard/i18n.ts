import { useTranslation } from 'react-i18next';
import { i18n, type CommonKey, type MessageVars } from '@/lib/i18n';
import { dashboardStatsEn } from './locales/en';
import { dashboardStatsZhCN, type DashboardStatsKey } from './locales/zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', dashboardStatsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', dashboardStatsEn, true, false);

/** Typed translation hook for the dashboard's numbers; re-renders on a language change. */
export function useDashboardT(): (
  key: DashboardStatsKey | CommonKey,
  vars?: MessageVars,
) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
