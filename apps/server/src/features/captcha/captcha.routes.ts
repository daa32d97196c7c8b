import { emptyRequest, ok } from '@atrium/shared';
import type { CaptchaImageResponse } from '@atrium/shared/contract/accounts';
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
  route(app, {
    area: 'public',
    path: '/api/captcha/image',
    body: emptyRequest,
    handler: async ({ req, reply }) => {
      const clientId = ensureClientId(req, reply, options.secureCookie);
      const { image } = await captcha.issue('member', clientId, req.ip);
      return ok<CaptchaImageResponse>({ image });
    },
  });

  route(app, {
    area: 'admin',
    public: true,
    path: '/admin/api/captcha/image',
    body: emptyRequest,
    handler: async ({ req, reply }) => {
      const clientId = ensureClientId(req, reply, options.secureCookie);
      const { image } = await captcha.issue('admin', clientId, req.ip);
      return ok<CaptchaImageResponse>({ image });
    },
  });
}
