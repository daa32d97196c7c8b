import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { registerAppRoutes } from './app.routes';
import { AppService } from './app.service';
import { WebVersion } from './web-version';

export { DEFAULT_SITE_NAME } from './app.service';
export { LazyHashes } from './lazy-hashes';

/** `app/config` of both areas (SPEC 4.1, DESIGN 5): the site, the caller, the version hashes. */
export function registerAppFeature(
  app: FastifyInstance,
  deps: { config: Config; extraConfig: () => Promise<Record<string, unknown>> },
): void {
  const { keptSettings: settings, now } = app.services;
  registerAppRoutes(
    app,
    new AppService({
      settings,
      webVersion: new WebVersion(deps.config.webDir, now),
      lazyHashes: app.lazyHashes,
      extraConfig: deps.extraConfig,
    }),
  );
}
