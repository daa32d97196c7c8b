import type { FastifyInstance } from 'fastify';
import { resolveSecret, type Config } from '../../config';
import { createSecretBox } from '../../security/secret-box';
import type { CaptchaService } from '../captcha/index';
import { MessagingSettings } from './messaging.settings';
import { Messenger } from './messenger';
import { OutboxRepository } from './outbox.repository';
import { registerVerifyRoutes } from './verify.routes';
import { VerifyService } from './verify.service';

export { VerifyService, targetOf } from './verify.service';

export interface VerifyFeature {
  verify: VerifyService;
  messenger: Messenger;
}

/** Verification codes with their transports (e-mail, SMS), the outbox and the login captcha setting. */
export function registerVerifyFeature(
  app: FastifyInstance,
  deps: { config: Config; captcha: CaptchaService },
): VerifyFeature {
  const { db, bus, limits, now, settings, members } = app.services;
  const secret = resolveSecret(deps.config).secret;
  const messaging = new MessagingSettings(
    settings,
    createSecretBox(secret, 'messaging-smtp-password'),
    now,
  );
  const outbox = new OutboxRepository(db);
  const messenger = new Messenger({ messaging, settings, outbox, log: app.log, now });
  const verify = new VerifyService({
    bus,
    limits,
    captcha: deps.captcha,
    messenger,
    members,
    secret,
    now,
  });
  registerVerifyRoutes(app, {
    verify,
    messenger,
    messaging,
    outbox,
    captcha: deps.captcha,
    settings,
    now,
  });
  return { verify, messenger };
}
