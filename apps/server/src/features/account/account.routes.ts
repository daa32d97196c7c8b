import { ok, TokenKey } from '@atrium/shared';
import { accountCalls as calls } from '@atrium/shared/contract/accounts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { okSaying } from '../../http/envelope';
import { route } from '../../http/route';
import { AccountMessages, type AccountService, type ClientInfo } from './account.service';

const clientOf = (req: FastifyRequest): ClientInfo => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'] ?? '',
  lang: req.lang,
});

/** Member sign-up, password reset, profile and password change (DESIGN 5, 7). */
export function registerAccountRoutes(app: FastifyInstance, account: AccountService): void {
  route(app, calls['auth/register'], async ({ body, req, reply }) => {
    const result = await account.register(body, clientOf(req));
    reply.header(TokenKey.member, result.token);
    return ok(result);
  });

  route(app, calls['auth/password_reset'], async ({ body }) => {
    await account.resetPassword(body);
    return okSaying(null, AccountMessages.passwordReset);
  });

  route(app, calls['account/profile'], async ({ member }) => ok(await account.profile(member)));

  route(app, calls['account/profile/save'], async ({ member, body }) =>
    okSaying(await account.saveProfile(member, body), AccountMessages.profileSaved),
  );

  route(app, calls['account/password'], async ({ member, body }) => {
    await account.changePassword(member, body);
    return okSaying(null, AccountMessages.passwordChanged);
  });
}
