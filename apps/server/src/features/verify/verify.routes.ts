import { emptyRequest, ok } from '@atrium/shared';
import {
  loginCaptchaRequest,
  maskTarget,
  messagingForm,
  messagingTestRequest,
  outboxListRequest,
  verifySendRequest,
  type LoginCaptchaMode,
  type MessagingView,
  type OutboxListResponse,
  type VerifySendResponse,
} from '@atrium/shared/contract/accounts';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/envelope';
import { route } from '../../http/route';
import type { SettingsRepository } from '../settings/settings.repository';
import { LOGIN_CAPTCHA_SETTING, type CaptchaService } from '../captcha/captcha.service';
import { clientIdOf } from '../captcha/client-id';
import type { MessagingSettings } from './messaging.settings';
import type { Messenger } from './messenger';
import type { OutboxRepository } from './outbox.repository';
import { targetOf, VerifyMessages, type VerifyService } from './verify.service';

/** Admin rules of the pages behind these calls (packages/shared/src/menu.ts). */
export const AccountRules = {
  outbox: 'system/outbox',
  messaging: 'system/message',
  loginCaptcha: 'system/setting',
} as const;

export function registerVerifyRoutes(
  app: FastifyInstance,
  deps: {
    verify: VerifyService;
    messenger: Messenger;
    messaging: MessagingSettings;
    outbox: OutboxRepository;
    captcha: CaptchaService;
    settings: SettingsRepository;
    now: () => number;
  },
): void {
  const { verify, messenger, messaging, outbox, captcha, settings, now } = deps;

  route(app, {
    area: 'public',
    path: '/api/verify/send',
    body: verifySendRequest,
    handler: async ({ body, req }) => {
      const result = await verify.send({
        target: targetOf(body.target),
        captcha: body.captcha,
        clientId: clientIdOf(req),
        ip: req.ip,
      });
      return ok<VerifySendResponse>(result, VerifyMessages.sent);
    },
  });

  route(app, {
    area: 'admin',
    rule: AccountRules.outbox,
    path: '/admin/api/system/outbox/list',
    body: outboxListRequest,
    handler: async ({ body }) => {
      const { rows, total } = await outbox.page(body.page, body.pageSize);
      return ok<OutboxListResponse>({
        records: rows.map(({ ip: _ip, ...row }) => ({ ...row, target: maskTarget(row.target) })),
        total,
        pageSize: body.pageSize,
      });
    },
  });

  route(app, {
    area: 'admin',
    rule: AccountRules.messaging,
    path: '/admin/api/system/message/get',
    body: emptyRequest,
    handler: async () => ok<MessagingView>(await messaging.view()),
  });

  route(app, {
    area: 'admin',
    rule: AccountRules.messaging,
    path: '/admin/api/system/message/save',
    body: messagingForm,
    handler: async ({ body }) => {
      await messaging.save(body);
      return ok<MessagingView>(await messaging.view(), 'Saved');
    },
  });

  route(app, {
    area: 'admin',
    rule: AccountRules.messaging,
    path: '/admin/api/system/message/test',
    body: messagingTestRequest,
    handler: async ({ body, req }) => {
      const delivery = await messenger.sendTest(targetOf(body.target), req.ip);
      if (!delivery.ok) throw new ApiError(`Sending failed: ${delivery.error}`);
      return ok(null, 'Test message sent');
    },
  });

  route(app, {
    area: 'admin',
    rule: AccountRules.loginCaptcha,
    path: '/admin/api/system/login_captcha/get',
    body: emptyRequest,
    handler: async () => ok<{ mode: LoginCaptchaMode }>({ mode: await captcha.loginMode() }),
  });

  route(app, {
    area: 'admin',
    rule: AccountRules.loginCaptcha,
    path: '/admin/api/system/login_captcha/save',
    body: loginCaptchaRequest,
    handler: async ({ body }) => {
      await settings.set(LOGIN_CAPTCHA_SETTING, body.mode, now());
      return ok<{ mode: LoginCaptchaMode }>({ mode: body.mode }, 'Saved');
    },
  });
}
