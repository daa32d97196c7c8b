import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { uploadConfigLazyKey } from '@atrium/shared/contract/files';
import type { Config } from '../../config';
import { registerUploadSettingsRoutes } from './upload-settings.routes';
import { UploadSettingsService } from './upload-settings.service';
import { loadUploadConfig } from '../library/index';

/** The admin editor of the `upload` setting (SPEC 3.6, DESIGN 6). */
export function registerUploadSettingsFeature(
  app: FastifyInstance,
  deps: { config: Config; minChunkSize: number },
): void {
  const { settings, now } = app.services;
  // Every app/config carries a hash of the configuration, so a save reaches open pages on their
  // next refresh without a reload (issue 28).
  app.lazyHashes.register(uploadConfigLazyKey, async () => {
    const config = await loadUploadConfig(settings, deps.minChunkSize);
    return createHash('sha256').update(JSON.stringify(config)).digest('hex').slice(0, 16);
  });
  registerUploadSettingsRoutes(
    app,
    new UploadSettingsService(
      settings,
      { driver: deps.config.storage.driver, minChunkSize: deps.minChunkSize },
      now,
      () => app.lazyHashes.changed(uploadConfigLazyKey),
    ),
  );
}
