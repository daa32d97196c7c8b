import { useEffect } from 'react';
import { assetUrl } from '@/lib/urls';
import { useConfigStore } from '@/stores/config-store';
import { siteLook } from '../site-look';

const ownMeta = 'data-atrium-site-meta';

/**
 * Puts the site settings into the page head: the title, the favicon and the extra meta tags
 * (replacing the ones it added before, never the page's own).
 */
export function useSiteHead(fallbackName: string): void {
  const config = useConfigStore((s) => s.config);
  const init = useConfigStore((s) => s.init);

  useEffect(() => {
    if (!init) return;
    const look = siteLook(config);
    document.title = look.siteName || fallbackName;

    if (look.favicon) {
      let icon = document.head.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (!icon) {
        icon = document.createElement('link');
        icon.rel = 'icon';
        document.head.append(icon);
      }
      icon.removeAttribute('type');
      icon.href = assetUrl(look.favicon);
    }

    document.head.querySelectorAll(`meta[${ownMeta}]`).forEach((meta) => meta.remove());
    for (const tag of look.metaTags) {
      const meta = document.createElement('meta');
      meta.setAttribute(ownMeta, '');
      meta.name = tag.name;
      meta.content = tag.value;
      document.head.append(meta);
    }
  }, [config, init, fallbackName]);
}
