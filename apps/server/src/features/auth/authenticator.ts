import { TokenKey } from '@atrium/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticateOptions, Authenticator } from '../../http/principal';
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

export function createAuthenticator(deps: {
  sessions: SessionsService;
  admins: AdminsService;
  members: MembersService;
}): Authenticator {
  return {
    async admin(req: FastifyRequest, reply: FastifyReply, options?: AuthenticateOptions) {
      const token = tokenFrom(req, TokenKey.admin);
      if (!token) return undefined;
      const auth = await deps.sessions.authenticate('admin', token, options);
      if (!auth) return undefined;
      const principal = await deps.admins.principal(auth.session.subjectId, auth.session.id);
      if (principal && auth.token) reply.header(TokenKey.admin, auth.token);
      return principal;
    },
    async member(req: FastifyRequest, reply: FastifyReply, options?: AuthenticateOptions) {
      const token = tokenFrom(req, TokenKey.member);
      if (!token) return undefined;
      const auth = await deps.sessions.authenticate('member', token, options);
      if (!auth) return undefined;
      const principal = await deps.members.principal(auth.session.subjectId, auth.session.id);
      if (principal && auth.token) reply.header(TokenKey.member, auth.token);
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
