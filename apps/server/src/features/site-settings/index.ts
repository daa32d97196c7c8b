import type { FastifyInstance } from 'fastify';
import { registerSiteSettingsRoutes } from './site-settings.routes';
import { SiteSettingsService } from './site-settings.service';

export { siteLanguageKey } from './site-settings.service';

/**
 * How often an instance reads the site's default language and the selector's frame origin again,
 * so a save on another instance reaches this one within that time (two small rows per instance;
 * no read per request).
 */
export const SITE_LANGUAGE_REFRESH_MS = 2_000;

/**
 * The site's default language (issue 27) and the origin its pages may frame (issue 28): read when
 * the app is ready and every SITE_LANGUAGE_REFRESH_MS after, and set at once by a save on this
 * instance.
 */
function keepSiteLanguage(app: FastifyInstance, site: SiteSettingsService): void {
  let timer: NodeJS.Timeout | undefined;
  let failing = false;
  let reading = false;
  const refresh = async () => {
    // One read at a time: while the database hangs, beats don't pile up on the pool.
    if (reading) return;
    reading = true;
    try {
      await site.language();
      await site.frameOrigin();
      failing = false;
    } catch (error) {
      // The database is out: what is held stays, and the next beat tries again.
      if (!failing) app.log.warn({ err: error }, 'site language or frame origin not read');
      failing = true;
    } finally {
      reading = false;
    }
  };
  app.addHook('onReady', async () => {
    await refresh();
    timer = setInterval(() => void refresh(), SITE_LANGUAGE_REFRESH_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
  });
}

/** Site name, default language, logo, banners, about text and meta tags (DESIGN 5). */
export function registerSiteSettingsFeature(
  app: FastifyInstance,
  deps: { defaultSiteName: string; allowFrames: (origin: string | undefined) => void },
): SiteSettingsService {
  const { db, now, keptSettings } = app.services;
  const site = new SiteSettingsService({
    db,
    kept: keptSettings,
    now,
    defaultSiteName: deps.defaultSiteName,
    siteLanguage: app.siteLanguage,
    allowFrames: deps.allowFrames,
  });
  registerSiteSettingsRoutes(app, site);
  keepSiteLanguage(app, site);
  return site;
}
