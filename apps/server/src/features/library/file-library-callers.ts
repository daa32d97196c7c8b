import { TokenKey } from '@atrium/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AdminPrincipal, MemberPrincipal } from '../../http/principal';
import { tokenFrom } from '../auth/index';
import type { Grant, UploadGrants } from './upload/index';

/** How the caller of a file-library request signed in. */
export interface LibraryAuth {
  token: string;
  sessionId: number;
  /** Set when the token was rotated away: it may only send the files this grant names. */
  grant: Grant | undefined;
}

/**
 * Resolves the callers of the file library. Its calls never rotate the token: WebUploader sends
 * `init` and the chunks with the headers it was created with and would drop a new token, while
 * the page kept the one just replaced. A token the page has rotated away meanwhile still counts
 * through an upload grant, for the upload calls of the files it was sending (DESIGN 4).
 */
export function fileLibraryCallers(app: FastifyInstance, grants: UploadGrants) {
  const auths = new WeakMap<FastifyRequest, LibraryAuth>();

  async function resolve<P extends { sessionId: number }>(
    req: FastifyRequest,
    tokenKey: string,
    byToken: () => Promise<P | undefined>,
    bySession: (sessionId: number) => Promise<P | undefined>,
  ): Promise<P | undefined> {
    const token = tokenFrom(req, tokenKey);
    if (!token) return undefined;
    const principal = await byToken();
    if (principal) {
      auths.set(req, { token, sessionId: principal.sessionId, grant: undefined });
      return principal;
    }
    const grant = await grants.find(token);
    if (!grant) return undefined;
    const granted = await bySession(grant.sessionId);
    if (granted) auths.set(req, { token, sessionId: granted.sessionId, grant });
    return granted;
  }

  return {
    admin(req: FastifyRequest, reply: FastifyReply): Promise<AdminPrincipal | undefined> {
      return resolve(
        req,
        TokenKey.admin,
        () => app.authenticator.admin(req, reply, { rotate: false }),
        (id) => app.authenticator.adminOfSession(id),
      );
    },
    member(req: FastifyRequest, reply: FastifyReply): Promise<MemberPrincipal | undefined> {
      return resolve(
        req,
        TokenKey.member,
        () => app.authenticator.member(req, reply, { rotate: false }),
        (id) => app.authenticator.memberOfSession(id),
      );
    },
    /** How the request's caller signed in; undefined before `admin`/`member` found one. */
    of(req: FastifyRequest): LibraryAuth | undefined {
      return auths.get(req);
    },
  };
}
