import type { AreaName } from '@atrium/shared/areas';
import { TokenKey } from '@atrium/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SubjectType } from '../../db/types';
import type {
  AdminPrincipal,
  AuthenticateOptions,
  Authenticator,
  MemberPrincipal,
} from '../../http/principal';
import { setFileManagerCookie } from '../../http/session-cookie';
import type { AdminsService } from '../admins/index';
import type { MembersService } from '../members/index';
import type { PrincipalCache } from './principal-cache';
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

/**
 * Resolves callers from their token: from memory when the principal cache holds a fresh entry
 * (issue 32), otherwise from the session and the account, keeping the answer for the next call.
 */
export function createAuthenticator(deps: {
  sessions: SessionsService;
  admins: AdminsService;
  members: MembersService;
  cache: PrincipalCache;
}): Authenticator {
  const { cache } = deps;
  type PrincipalOf<P> = (subjectId: number, sessionId: number) => Promise<P | undefined>;
  const adminOf: PrincipalOf<AdminPrincipal> = (id, sessionId) =>
    deps.admins.principal(id, sessionId);
  const memberOf: PrincipalOf<MemberPrincipal> = (id, sessionId) =>
    deps.members.principal(id, sessionId);

  async function resolve<P extends AdminPrincipal | MemberPrincipal>(
    area: SubjectType,
    principalOf: PrincipalOf<P>,
    req: FastifyRequest,
    reply: FastifyReply,
    options: AuthenticateOptions | undefined,
  ): Promise<P | undefined> {
    const header = TokenKey[area];
    const token = options?.token ?? tokenFrom(req, header);
    if (!token) return undefined;
    if (cache.get<P>(area, token)) {
      // News of a revoke that reached this instance with this request is read first: the check
      // phase comes after every socket the last poll found ready, the bus's among them.
      await new Promise(setImmediate);
      const cached = cache.get<P>(area, token);
      if (cached) {
        reply.header(header, token);
        return cached;
      }
    }
    const mark = cache.mark();
    const auth = await deps.sessions.authenticate(area, token, options);
    if (!auth) return undefined;
    const principal = await principalOf(auth.session.subjectId, auth.session.id);
    if (!principal) return undefined;
    if (auth.token) answerToken(req, reply, area, token, auth.token);
    if (auth.freshUntil !== undefined) cache.set(area, token, principal, auth.freshUntil, mark);
    return principal;
  }

  /** The caller behind a live session named by id (never cached: no token came with it). */
  async function ofSession<P>(area: SubjectType, principalOf: PrincipalOf<P>, sessionId: number) {
    const session = await deps.sessions.resume(area, sessionId);
    return session ? principalOf(session.subjectId, session.id) : undefined;
  }

  return {
    admin: (req, reply, options) => resolve('admin', adminOf, req, reply, options),
    member: (req, reply, options) => resolve('member', memberOf, req, reply, options),
    adminOfSession: (sessionId) => ofSession('admin', adminOf, sessionId),
    memberOfSession: (sessionId) => ofSession('member', memberOf, sessionId),
  };
}
