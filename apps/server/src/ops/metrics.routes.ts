import type { FastifyInstance } from 'fastify';
import { safeEqual } from '../http/tokens';
import type { Metrics } from './metrics';

const bearer = /^Bearer\s+(\S+)\s*$/i;

/**
 * `GET /metrics` in Prometheus' text format, for a scraper holding ATRIUM_METRICS_TOKEN as a
 * bearer token. Not registered without a token, so it answers 404 like any unknown address.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.get('/metrics', async (req, reply) => {
    void reply.header('cache-control', 'no-store');
    const offered = bearer.exec(req.headers.authorization ?? '')?.[1];
    if (offered === undefined) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8')
        .send('a bearer token is required\n');
    }
    // Hashed before comparing, so the time taken says nothing about the token's length either.
    if (!safeEqual(offered, token)) {
      req.log.warn('metrics scrape with a wrong token');
      return reply.code(403).type('text/plain; charset=utf-8').send('wrong token\n');
    }
    const text = await metrics.text();
    return reply.type(metrics.contentType).send(text);
  });
}
