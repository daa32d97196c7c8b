import type { FastifyInstance } from 'fastify';
import { resolveSecret, type Config } from '../../config';
import { registerCaptchaRoutes } from './captcha.routes';
import { CaptchaService } from './captcha.service';

export { CaptchaService, LOGIN_CAPTCHA_SETTING } from './captcha.service';
export { clientIdOf } from './client-id';
export { imageLoginCaptcha } from './login-captcha';

/** The image captcha (SPEC 7.4, DESIGN 7): `captcha/image` of both areas and its checks. */
export function registerCaptchaFeature(
  app: FastifyInstance,
  deps: { config: Config },
): CaptchaService {
  const { bus, limits, settings } = app.services;
  const { logCaptchaAnswers } = deps.config;
  if (logCaptchaAnswers) {
    app.log.warn('ATRIUM_LOG_CAPTCHA_ANSWERS is on: every captcha answer goes to the log');
  }
  const captcha = new CaptchaService({
    bus,
    limits,
    settings,
    secret: resolveSecret(deps.config).secret,
    ...(logCaptchaAnswers ? { answerLog: app.log } : {}),
  });
  registerCaptchaRoutes(app, captcha, {
    secureCookie: deps.config.publicUrl?.startsWith('https:') ?? false,
  });
  return captcha;
}
