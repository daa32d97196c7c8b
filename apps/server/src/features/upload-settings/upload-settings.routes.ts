import { ok } from '@atrium/shared';
import {
  uploadSettingsGetRequest,
  uploadSettingsSaveRequest,
} from '@atrium/shared/contract/upload-settings';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { UploadSettingsService } from './upload-settings.service';

export const settingsRule = 'system/setting';
const base = '/admin/api/settings/upload';

export function registerUploadSettingsRoutes(app: FastifyInstance, service: UploadSettingsService) {
  route(app, {
    area: 'admin',
    rule: settingsRule,
    path: `${base}/get`,
    body: uploadSettingsGetRequest,
    handler: async () => ok(await service.get()),
  });

  route(app, {
    area: 'admin',
    rule: settingsRule,
    path: `${base}/save`,
    body: uploadSettingsSaveRequest,
    handler: async ({ body }) => ok(await service.save(body.config), 'Save Success'),
  });
}
