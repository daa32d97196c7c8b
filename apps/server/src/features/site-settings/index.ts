import type { FastifyInstance } from 'fastify';
import { registerSiteSettingsRoutes } from './site-settings.routes';
import { SiteSettingsService } from './site-settings.service';

/** Site name, logo, banners, about text and meta tags (DESIGN 5). */
export function registerSiteSettingsFeature(
  app: FastifyInstance,
  deps: { defaultSiteName: string },
): SiteSettingsService {
  const { db, now } = app.services;
  const site = new SiteSettingsService({ db, now, defaultSiteName: deps.defaultSiteName });
  registerSiteSettingsRoutes(app, site);
  return site;
}
