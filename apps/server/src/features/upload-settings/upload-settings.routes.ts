import { ok } from '@atrium/shared';
import { uploadSettingsCalls as calls } from '@atrium/shared/contract/upload-settings';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { UploadSettingsService } from './upload-settings.service';

export function registerUploadSettingsRoutes(app: FastifyInstance, service: UploadSettingsService) {
  route(app, calls['settings/upload/get'], async () => ok(await service.get()));
  route(app, calls['settings/upload/save'], async ({ body }) =>
    ok(await service.save(body.config), 'Save Success'),
  );
}
