import type { FastifyInstance } from 'fastify';
import { registerAuthRoutes } from './auth.routes';
import { AuthService } from './auth.service';
import type { CaptchaVerifier } from './captcha';

export { createAuthenticator, tokenFrom } from './authenticator';
export {
  captchaNotRequired,
  type CaptchaVerdict,
  type CaptchaVerifier,
  type LoginAttempt,
} from './captcha';
export { PrincipalCache, PRINCIPAL_TTL_MS, PRINCIPALS_CHANNEL } from './principal-cache';
export { SessionsRepository } from './sessions.repository';
export { SessionsService } from './sessions.service';

/** Sign-in and sign-out of both areas (SPEC 7.4, DESIGN 7), with the login captcha given. */
export function registerAuthFeature(
  app: FastifyInstance,
  deps: { captcha: CaptchaVerifier },
): AuthService {
  const { limits, sessions, admins, members } = app.services;
  const auth = new AuthService({ limits, sessions, admins, members, captcha: deps.captcha });
  registerAuthRoutes(app, auth);
  return auth;
}
