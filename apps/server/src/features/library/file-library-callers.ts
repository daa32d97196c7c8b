import type { AreaName } from '@atrium/shared/areas';
import { TokenKey } from '@atrium/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AdminPrincipal, MemberPrincipal } from '../../http/principal';
import { fileManagerCookieToken } from '../../http/session-cookie';
import { tokenFrom } from '../auth/index';
import type { Grant, UploadGrants } from './upload/index';

/** How the caller of a file-library request signed in. */
export interface LibraryAuth {
  token: string;
  sessionId: number;
  /** Set when the token was rotated away: it may only send the files this grant names. */
  grant: Grant | undefined;
  /**
   * 'cookie': the token came in the file manager's cookie with a same-origin proof, which stands
   * for the XSRF echo such pages cannot send (README "Security").
   */
  via: 'header' | 'cookie';
}

/**
 * Resolves the callers of the file library. Its calls never rotate the token: WebUploader sends
 * `init` and the chunks with the headers it was created with and would drop a new token, while
 * the page kept the one just replaced. A token the page has rotated away meanwhile still counts
 * through an upload grant, for the upload calls of the files it was sending (DESIGN 4).
 */
export function fileLibraryCallers(
  app: FastifyInstance,
  grants: UploadGrants,
  siteOrigin: (req: FastifyRequest) => string,
) {
  const auths = new WeakMap<FastifyRequest, LibraryAuth>();

  /** The caller by one token: live, or rotated away but holding an upload grant. */
  async function byToken<P extends { sessionId: number }>(
    req: FastifyRequest,
    token: string,
    via: LibraryAuth['via'],
    live: (token: string) => Promise<P | undefined>,
    bySession: (sessionId: number) => Promise<P | undefined>,
  ): Promise<P | undefined> {
    const principal = await live(token);
    if (principal) {
      auths.set(req, { token, sessionId: principal.sessionId, grant: undefined, via });
      return principal;
    }
    const grant = await grants.find(token);
    if (!grant) return undefined;
    const granted = await bySession(grant.sessionId);
    if (granted) auths.set(req, { token, sessionId: granted.sessionId, grant, via });
    return granted;
  }

  /** The header's token first; without one, or when it no longer counts, the cookie's. */
  async function resolve<P extends { sessionId: number }>(
    req: FastifyRequest,
    area: AreaName,
    live: (token: string) => Promise<P | undefined>,
    bySession: (sessionId: number) => Promise<P | undefined>,
  ): Promise<P | undefined> {
    const header = tokenFrom(req, TokenKey[area]);
    const found = header && (await byToken(req, header, 'header', live, bySession));
    if (found) return found;
    const cookie = fileManagerCookieToken(req, area, siteOrigin(req));
    return cookie ? byToken(req, cookie, 'cookie', live, bySession) : undefined;
  }

  return {
    admin(req: FastifyRequest, reply: FastifyReply): Promise<AdminPrincipal | undefined> {
      return resolve(
        req,
        'admin',
        (token) => app.authenticator.admin(req, reply, { rotate: false, token }),
        (id) => app.authenticator.adminOfSession(id),
      );
    },
    member(req: FastifyRequest, reply: FastifyReply): Promise<MemberPrincipal | undefined> {
      return resolve(
        req,
        'member',
        (token) => app.authenticator.member(req, reply, { rotate: false, token }),
        (id) => app.authenticator.memberOfSession(id),
      );
    },
    /** How the request's caller signed in; undefined before `admin`/`member` found one. */
    of(req: FastifyRequest): LibraryAuth | undefined {
      return auths.get(req);
    },
  };
}
