import { ok } from '@atrium/shared';
import { siteSettingsCalls as calls } from '@atrium/shared/contract/site-settings';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { SiteSettingsService } from './site-settings.service';

export function registerSiteSettingsRoutes(app: FastifyInstance, service: SiteSettingsService) {
  route(app, calls['setting/get'], async () => ok(await service.get()));
  route(app, calls['setting/save'], async ({ body }) =>
    ok(await service.save(body.settings), 'Save Success'),
  );
}
