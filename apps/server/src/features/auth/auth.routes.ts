import { emptyRequest, loginRequest, ok, TokenKey } from '@atrium/shared';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { AuthService } from './auth.service';

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService): void {
  route(app, {
    area: 'admin',
    public: true,
    path: '/admin/api/auth/login',
    body: loginRequest,
    handler: async ({ body, req, reply }) => {
      const result = await auth.login('admin', body, req);
      reply.header(TokenKey.admin, result.token);
      return ok(result);
    },
  });

  route(app, {
    area: 'admin',
    rule: null,
    path: '/admin/api/auth/logout',
    body: emptyRequest,
    handler: async ({ admin, reply }) => {
      await auth.logout(admin.sessionId);
      reply.removeHeader(TokenKey.admin);
      return ok(null);
    },
  });

  route(app, {
    area: 'public',
    path: '/api/auth/login',
    body: loginRequest,
    handler: async ({ body, req, reply }) => {
      const result = await auth.login('member', body, req);
      reply.header(TokenKey.member, result.token);
      return ok(result);
    },
  });

  route(app, {
    area: 'member',
    path: '/api/auth/logout',
    body: emptyRequest,
    handler: async ({ member, reply }) => {
      await auth.logout(member.sessionId);
      reply.removeHeader(TokenKey.member);
      return ok(null);
    },
  });
}
