import type { FastifyInstance } from 'fastify';
import type { Readiness } from './readiness';

/**
 * `GET /healthz` (the process is up) and `GET /readyz` (what it needs answers), for load
 * balancers and orchestrators: outside the `{code,msg,data}` API, no sign-in, never cached.
 */
export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness): void {
  // Touches nothing: a process whose database is down is still alive, and restarting it would
  // not bring the database back.
  app.get('/healthz', (_req, reply) => {
    void reply
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send('{"status":"ok"}');
  });

  app.get('/readyz', async (_req, reply) => {
    const report = await readiness.report();
    return reply
      .code(report.status === 'ready' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });
}
