import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { registerUploadSettingsRoutes } from './upload-settings.routes';
import { UploadSettingsService } from './upload-settings.service';

/** The admin editor of the `upload` setting (SPEC 3.6, DESIGN 6). */
export function registerUploadSettingsFeature(
  app: FastifyInstance,
  deps: { config: Config; minChunkSize: number },
): void {
  const { settings, now } = app.services;
  registerUploadSettingsRoutes(
    app,
    new UploadSettingsService(
      settings,
      { driver: deps.config.storage.driver, minChunkSize: deps.minChunkSize },
      now,
    ),
  );
}
