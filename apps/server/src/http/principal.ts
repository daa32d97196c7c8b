import type { FastifyReply, FastifyRequest } from 'fastify';

/** The signed-in member behind a request. */
export interface MemberPrincipal {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  sessionId: number;
}

/** The signed-in admin behind a request, with the union of their roles' rules. */
export interface AdminPrincipal {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  isFounder: boolean;
  rules: string[];
  sessionId: number;
}

/**
 * What writes tell the principal cache, on this instance and (over the bus) every other one: a
 * session revoked or rotated, an account changed (password, profile, disabled, roles, deleted),
 * or every signed-in caller of an area at once (a role's rules changed).
 */
export interface PrincipalChanges {
  session(sessionId: number): Promise<void>;
  subject(area: 'admin' | 'member', subjectId: number): Promise<void>;
  area(area: 'admin' | 'member'): Promise<void>;
}

export interface AuthenticateOptions {
  /**
   * False for calls whose client cannot take a new token (WebUploader's headers are fixed when
   * it is created): a token handed out there would be lost, and the page would keep one that
   * was replaced. The token is still checked and the session still slides.
   */
  rotate?: boolean;
  /** The token to check when it came another way than the area's header (the file manager's cookie). */
  token?: string;
}

/**
 * Resolves the caller from the token request header of its area and, when a session is found,
 * puts the (possibly rotated) token on the response header of the same name.
 */
export interface Authenticator {
  admin(
    req: FastifyRequest,
    reply: FastifyReply,
    options?: AuthenticateOptions,
  ): Promise<AdminPrincipal | undefined>;
  member(
    req: FastifyRequest,
    reply: FastifyReply,
    options?: AuthenticateOptions,
  ): Promise<MemberPrincipal | undefined>;
  /** The caller behind a live session named by id (an upload grant's); no token is answered. */
  adminOfSession(sessionId: number): Promise<AdminPrincipal | undefined>;
  memberOfSession(sessionId: number): Promise<MemberPrincipal | undefined>;
}
