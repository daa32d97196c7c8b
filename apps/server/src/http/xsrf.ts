import { TokenKey, XsrfCookie, XsrfHeader } from '@atrium/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { message, refusal } from './envelope';
import { newToken, safeEqual } from './tokens';

/**
 * Double-submit XSRF check (DESIGN 4). The page reads the `XSRF-TOKEN` cookie and echoes it in
 * `X-XSRF-TOKEN`; another site can make the browser send the cookie but cannot read it. Every POST
 * that carries a session token must echo it, or it is refused before anything runs.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'route': the route checks the echo itself once it knows which call it is (the file
     * library, whose upload calls come from WebUploader with no echo).
     */
    xsrf?: 'route';
  }
}

/** Whether the request echoes its XSRF cookie in the header. */
export function xsrfEchoed(req: FastifyRequest): boolean {
  const cookie = req.cookies[XsrfCookie];
  const header = req.headers[XsrfHeader];
  return (
    cookie !== undefined && cookie !== '' && typeof header === 'string' && safeEqual(cookie, header)
  );
}

export function registerXsrf(app: FastifyInstance, options: { secureCookie: boolean }): void {
  app.addHook('onRequest', async (req, reply) => {
    const cookie = req.cookies[XsrfCookie];
    if (!cookie) {
      reply.setCookie(XsrfCookie, newToken(), {
        path: '/',
        sameSite: 'lax',
        httpOnly: false,
        secure: options.secureCookie,
      });
    }
    if (req.method !== 'POST' || req.routeOptions.config.xsrf === 'route') return;
    const carriesToken = Boolean(req.headers[TokenKey.member] || req.headers[TokenKey.admin]);
    if (!carriesToken) return;
    if (!xsrfEchoed(req)) return reply.code(200).send(refusal(message('http.xsrfMismatch')));
  });
}
