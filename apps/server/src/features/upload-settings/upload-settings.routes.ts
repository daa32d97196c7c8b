import { ok } from '@atrium/shared';
import { message } from '@atrium/shared/messages/catalogue';
import { uploadSettingsCalls as calls } from '@atrium/shared/contract/upload-settings';
import type { FastifyInstance } from 'fastify';
import { okSaying } from '../../http/envelope';
import { route } from '../../http/route';
import type { UploadSettingsService } from './upload-settings.service';

export function registerUploadSettingsRoutes(app: FastifyInstance, service: UploadSettingsService) {
  route(app, calls['settings/upload/get'], async () => ok(await service.get()));
  route(app, calls['settings/upload/save'], async ({ body }) =>
    okSaying(await service.save(body.config), message('common.saveSuccess')),
  );
}
