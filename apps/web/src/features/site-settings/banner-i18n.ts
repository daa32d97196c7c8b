import { useTranslation } from 'react-i18next';
import { i18n, type MessageVars } from '@/lib/i18n';
import { bannerEn } from './locales/banner-en';
import { bannerZhCN, type BannerKey } from './locales/banner-zh-cn';

i18n.addResourceBundle('zh-CN', 'translation', bannerZhCN, true, false);
i18n.addResourceBundle('en', 'translation', bannerEn, true, false);

/** Typed translation hook for the home banner; re-renders on a language change. */
export function useBannerT(): (key: BannerKey, vars?: MessageVars) => string {
  const { t } = useTranslation();
  return (key, vars) => t(key, vars);
}
