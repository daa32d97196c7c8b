import { ok } from '@atrium/shared';
import {
  accountCalls,
  messagingCalls as calls,
  maskTarget,
} from '@atrium/shared/contract/accounts';
import type { FastifyInstance } from 'fastify';
import { ApiError, message, okSaying } from '../../http/envelope';
import { route } from '../../http/route';
import type { SettingsRepository } from '../../db/settings.repository';
import { LOGIN_CAPTCHA_SETTING, type CaptchaService } from '../captcha/index';
import { clientIdOf } from '../captcha/index';
import type { MessagingSettings } from './messaging.settings';
import { outboxErrorText, type Messenger } from './messenger';
import type { OutboxRepository } from './outbox.repository';
import { targetOf, VerifyMessages, type VerifyService } from './verify.service';

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
  route(app, accountCalls['verify/send'], async ({ body, req }) => {
    const result = await verify.send({
      target: targetOf(body.target),
      captcha: body.captcha,
      username: body.username,
      clientId: clientIdOf(req),
      ip: req.ip,
      lang: req.lang,
    });
    return okSaying(result, VerifyMessages.sent);
  });
  route(app, calls['system/outbox/list'], async ({ body, req }) => {
    const { rows, total } = await outbox.page(body.page, body.pageSize);
    return ok({
      records: rows.map(({ ip: _ip, ...row }) => ({
        ...row,
        target: maskTarget(row.target),
        error: outboxErrorText(row.error, req.lang),
      })),
      total,
      pageSize: body.pageSize,
    });
  });
  route(app, calls['system/message/get'], async () => ok(await messaging.view()));
  route(app, calls['system/message/save'], async ({ body }) => {
    await messaging.save(body);
    return okSaying(await messaging.view(), message('common.saved'));
  });
  route(app, calls['system/message/test'], async ({ body, req }) => {
    const delivery = await messenger.sendTest(targetOf(body.target), req.ip, req.lang);
    if (!delivery.ok) throw new ApiError(message('account.sendFailed', { reason: delivery.error }));
    return okSaying(null, message('account.testSent'));
  });
  route(app, calls['system/login_captcha/get'], async () =>
    ok({ mode: await captcha.loginMode() }),
  );
  route(app, calls['system/login_captcha/save'], async ({ body }) => {
    await settings.set(LOGIN_CAPTCHA_SETTING, body.mode, now());
    return okSaying({ mode: body.mode }, message('common.saved'));
  });
}
