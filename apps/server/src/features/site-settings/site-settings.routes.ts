import { ok } from '@atrium/shared';
import {
  siteSettingsGetRequest,
  siteSettingsSaveRequest,
} from '@atrium/shared/contract/site-settings';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { SiteSettingsService } from './site-settings.service';

export const siteSettingsRule = 'system/setting';
const base = '/admin/api/setting';

export function registerSiteSettingsRoutes(app: FastifyInstance, service: SiteSettingsService) {
  route(app, {
    area: 'admin',
    rule: siteSettingsRule,
    path: `${base}/get`,
    body: siteSettingsGetRequest,
    handler: async () => ok(await service.get()),
  });

  route(app, {
    area: 'admin',
    rule: siteSettingsRule,
    path: `${base}/save`,
    body: siteSettingsSaveRequest,
    handler: async ({ body }) => ok(await service.save(body.settings), 'Save Success'),
  });
}
