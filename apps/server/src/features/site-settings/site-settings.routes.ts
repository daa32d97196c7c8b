import { ok } from '@atrium/shared';
import { siteSettingsCalls as calls } from '@atrium/shared/contract/site-settings';
import type { FastifyInstance } from 'fastify';
import { message, okSaying } from '../../http/envelope';
import { route } from '../../http/route';
import type { SiteSettingsService } from './site-settings.service';

export function registerSiteSettingsRoutes(app: FastifyInstance, service: SiteSettingsService) {
  route(app, calls['setting/get'], async () => ok(await service.get()));
  route(app, calls['setting/save'], async ({ body }) =>
    okSaying(await service.save(body.settings), message('common.saveSuccess')),
  );
}
