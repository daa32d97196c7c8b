import type { FastifyInstance } from 'fastify';
import { resolveSecret, type Config } from '../../config';
import { createSecretBox } from '../../security/secret-box';
import { registerCaptchaRoutes } from '../captcha/captcha.routes';
import { CaptchaService } from '../captcha/captcha.service';
import { MessagingSettings } from '../verify/messaging.settings';
import { Messenger } from '../verify/messenger';
import { OutboxRepository } from '../verify/outbox.repository';
import { registerVerifyRoutes } from '../verify/verify.routes';
import { VerifyService } from '../verify/verify.service';
import { AccountRepository } from './account.repository';
import { registerAccountRoutes } from './account.routes';
import { AccountService } from './account.service';

export interface AccountsFeature {
  captcha: CaptchaService;
  verify: VerifyService;
  messenger: Messenger;
  account: AccountService;
}

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountsFeature;
  }
}

/**
 * Image captcha, verification codes with their transports and outbox, and member accounts
 * (issue 6). Needs `app.services`; the login captcha hook reads `app.accounts.captcha`.
 */
export function registerAccountsFeature(
  app: FastifyInstance,
  options: { config: Config },
): AccountsFeature {
  const { db, bus, limits, now, settings, members, sessions } = app.services;
  const secret = resolveSecret(options.config).secret;
  if (!secret) throw new Error('The accounts feature needs a server secret');

  const { logCaptchaAnswers } = options.config;
  if (logCaptchaAnswers) {
    app.log.warn('ATRIUM_LOG_CAPTCHA_ANSWERS is on: every captcha answer goes to the log');
  }
  const captcha = new CaptchaService({
    bus,
    limits,
    settings,
    secret,
    ...(logCaptchaAnswers ? { answerLog: app.log } : {}),
  });
  const messaging = new MessagingSettings(
    settings,
    createSecretBox(secret, 'messaging-smtp-password'),
    now,
  );
  const outbox = new OutboxRepository(db);
  const messenger = new Messenger({ messaging, settings, outbox, log: app.log, now });
  const verify = new VerifyService({ bus, limits, captcha, messenger, secret, now });
  const account = new AccountService({
    repo: new AccountRepository(db),
    members,
    sessions,
    captcha,
    verify,
    limits,
    ownsImage: (memberId, path) =>
      app.filesFeature.files.owns(
        { owner: { type: 'member', id: memberId }, library: 'image' },
        path,
      ),
    now,
  });

  const feature: AccountsFeature = { captcha, verify, messenger, account };
  app.decorate('accounts', feature);
  registerCaptchaRoutes(app, captcha, {
    secureCookie: options.config.publicUrl?.startsWith('https:') ?? false,
  });
  registerVerifyRoutes(app, { verify, messenger, messaging, outbox, captcha, settings, now });
  registerAccountRoutes(app, account);
  return feature;
}
