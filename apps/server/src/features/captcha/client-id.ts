import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The anonymous client id cookie a captcha is bound to (DESIGN 7). */
export const CLIENT_COOKIE = 'atrium-client';

const CLIENT_COOKIE_MAX_AGE_S = 24 * 60 * 60;
const pattern = /^[A-Za-z0-9_-]{22}$/;

/** The client id the browser sent, if it is one this server could have issued. */
export function clientIdOf(req: FastifyRequest): string | undefined {
  const value = req.cookies[CLIENT_COOKIE];
  return value && pattern.test(value) ? value : undefined;
}

/** The request's client id, issuing one (httpOnly, SameSite=Lax) when it has none. */
export function ensureClientId(req: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const id = clientIdOf(req) ?? randomBytes(16).toString('base64url');
  reply.setCookie(CLIENT_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: CLIENT_COOKIE_MAX_AGE_S,
  });
  return id;
}
