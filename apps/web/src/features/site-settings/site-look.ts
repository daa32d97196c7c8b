import type { SiteMetaTag, SitePublicConfig } from '@atrium/shared/contract/site-settings';
import { defaultLanguage, isLanguage } from '@atrium/shared/messages/catalogue';
import type { SiteConfig } from '@/stores/config-store';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function metaTags(value: unknown): SiteMetaTag[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { name, value: content } = item as Record<string, unknown>;
    return typeof name === 'string' && name && typeof content === 'string'
      ? [{ name, value: content }]
      : [];
  });
}

/** The site's public look from `app/config` (typed loosely there, as other features add keys). */
export function siteLook(config: SiteConfig): SitePublicConfig {
  return {
    siteName: text(config.siteName),
    siteLanguage: isLanguage(config.siteLanguage) ? config.siteLanguage : defaultLanguage,
    logo: text(config.logo),
    favicon: text(config.favicon),
    banners: Array.isArray(config.banners) ? config.banners.map(text).filter(Boolean) : [],
    metaTags: metaTags(config.metaTags),
    selectorMode: config.selectorMode === 'external' ? 'external' : 'builtin',
    selectorServer: text(config.selectorServer),
  };
}
