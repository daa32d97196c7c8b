import { emptyRequest, ok, TokenKey, type LoginResponse } from '@atrium/shared';
import {
  passwordChangeRequest,
  passwordResetRequest,
  profileSaveRequest,
  registerRequest,
  type Profile,
} from '@atrium/shared/contract/accounts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '../../http/route';
import { clientIdOf } from '../captcha/client-id';
import { AccountMessages, type AccountService, type ClientInfo } from './account.service';

const clientOf = (req: FastifyRequest): ClientInfo => ({
  clientId: clientIdOf(req),
  ip: req.ip,
  userAgent: req.headers['user-agent'] ?? '',
});

/** Member sign-up, password reset, profile and password change (DESIGN 5, 7). */
export function registerAccountRoutes(app: FastifyInstance, account: AccountService): void {
  route(app, {
    area: 'public',
    path: '/api/auth/register',
    body: registerRequest,
    handler: async ({ body, req, reply }) => {
      const result = await account.register(body, clientOf(req));
      reply.header(TokenKey.member, result.token);
      return ok<LoginResponse>(result);
    },
  });

  route(app, {
    area: 'public',
    path: '/api/auth/password_reset',
    body: passwordResetRequest,
    handler: async ({ body }) => {
      await account.resetPassword(body);
      return ok(null, AccountMessages.passwordReset);
    },
  });

  route(app, {
    area: 'member',
    path: '/api/account/profile',
    body: emptyRequest,
    handler: async ({ member }) => ok<Profile>(await account.profile(member)),
  });

  route(app, {
    area: 'member',
    path: '/api/account/profile/save',
    body: profileSaveRequest,
    handler: async ({ member, body }) =>
      ok<Profile>(await account.saveProfile(member, body), AccountMessages.profileSaved),
  });

  route(app, {
    area: 'member',
    path: '/api/account/password',
    body: passwordChangeRequest,
    handler: async ({ member, body }) => {
      await account.changePassword(member, body);
      return ok(null, AccountMessages.passwordChanged);
    },
  });
}
