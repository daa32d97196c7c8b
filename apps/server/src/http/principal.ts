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
 * Resolves the caller from the token request header of its area and, when a session is found,
 * puts the (possibly rotated) token on the response header of the same name.
 */
export interface Authenticator {
  admin(req: FastifyRequest, reply: FastifyReply): Promise<AdminPrincipal | undefined>;
  member(req: FastifyRequest, reply: FastifyReply): Promise<MemberPrincipal | undefined>;
}
