import type { AreaName } from '@atrium/shared/areas';
import { TokenKey } from '@atrium/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticateOptions, Authenticator } from '../../http/principal';
import { setFileManagerCookie } from '../../http/session-cookie';
import type { AdminsService } from '../admins/index';
import type { MembersService } from '../members/index';
import type { SessionsService } from './sessions.service';

/** Tokens are 43 characters; anything much longer is not worth hashing. */
const MAX_TOKEN_LENGTH = 256;

/** The token from the request header only: never a cookie, the body or the query string. */
export function tokenFrom(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TOKEN_LENGTH
    ? value
    : undefined;
}

/**
 * Puts the token the caller is to use on the answer's header; a fresh one (rotated) renews the
 * file manager's cookie too, so pages that only send the cookie follow the rotation (issue 31).
 */
function answerToken(
  req: FastifyRequest,
  reply: FastifyReply,
  area: AreaName,
  sent: string,
  live: string,
): void {
  reply.header(TokenKey[area], live);
  if (live !== sent) setFileManagerCookie(req, reply, area, live);
}

export function createAuthenticator(deps: {
  sessions: SessionsService;
  admins: AdminsService;
  members: MembersService;
}): Authenticator {
  return {
    async admin(req: FastifyRequest, reply: FastifyReply, options?: AuthenticateOptions) {
      const token = options?.token ?? tokenFrom(req, TokenKey.admin);
      if (!token) return undefined;
      const auth = await deps.sessions.authenticate('admin', token, options);
      if (!auth) return undefined;
      const principal = await deps.admins.principal(auth.session.subjectId, auth.session.id);
      if (principal && auth.token) answerToken(req, reply, 'admin', token, auth.token);
      return principal;
    },
    async member(req: FastifyRequest, reply: FastifyReply, options?: AuthenticateOptions) {
      const token = options?.token ?? tokenFrom(req, TokenKey.member);
      if (!token) return undefined;
      const auth = await deps.sessions.authenticate('member', token, options);
      if (!auth) return undefined;
      const principal = await deps.members.principal(auth.session.subjectId, auth.session.id);
      if (principal && auth.token) answerToken(req, reply, 'member', token, auth.token);
      return principal;
    },
    async adminOfSession(sessionId: number) {
      const session = await deps.sessions.resume('admin', sessionId);
      return session ? deps.admins.principal(session.subjectId, session.id) : undefined;
    },
    async memberOfSession(sessionId: number) {
      const session = await deps.sessions.resume('member', sessionId);
      return session ? deps.members.principal(session.subjectId, session.id) : undefined;
    },
  };
}
