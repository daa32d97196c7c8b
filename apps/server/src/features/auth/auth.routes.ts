import { ok, TokenKey } from '@atrium/shared';
import { authCalls } from '@atrium/shared/contract/auth';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import { clearFileManagerCookie, setFileManagerCookie } from '../../http/session-cookie';
import type { AuthService } from './auth.service';

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService): void {
  route(app, authCalls.admin['auth/login'], async ({ body, req, reply }) => {
    const result = await auth.login('admin', body, req);
    reply.header(TokenKey.admin, result.token);
    setFileManagerCookie(req, reply, 'admin', result.token);
    return ok(result);
  });

  route(app, authCalls.admin['auth/logout'], async ({ admin, reply }) => {
    await auth.logout(admin.sessionId);
    reply.removeHeader(TokenKey.admin);
    clearFileManagerCookie(reply, 'admin');
    return ok(null);
  });

  route(app, authCalls.member['auth/login'], async ({ body, req, reply }) => {
    const result = await auth.login('member', body, req);
    reply.header(TokenKey.member, result.token);
    setFileManagerCookie(req, reply, 'member', result.token);
    return ok(result);
  });

  route(app, authCalls.member['auth/logout'], async ({ member, reply }) => {
    await auth.logout(member.sessionId);
    reply.removeHeader(TokenKey.member);
    clearFileManagerCookie(reply, 'member');
    return ok(null);
  });
}
