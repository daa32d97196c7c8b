import { ok } from '@atrium/shared';
import { captchaCalls as calls } from '@atrium/shared/contract/accounts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { CaptchaService } from './captcha.service';
import { ensureClientId } from './client-id';

/** `captcha/image` of both areas (SPEC 7.4): a new captcha as a PNG data URL in `data.image`. */
export function registerCaptchaRoutes(
  app: FastifyInstance,
  captcha: CaptchaService,
  options: { secureCookie: boolean },
): void {
  for (const area of ['member', 'admin'] as const) {
    route(app, calls[area]['captcha/image'], async ({ req, reply }) => {
      const clientId = ensureClientId(req, reply, options.secureCookie);
      const { image } = await captcha.issue(area, clientId, req.ip);
      return ok({ image });
    });
  }
}
