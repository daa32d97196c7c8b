import type { FastifyInstance } from 'fastify';
import { redisConnections, type Bus } from '../bus/index';
import type { Config } from '../config';
import type { Db } from '../db/index';
import { poolStats } from '../db/pool-stats';
import type { Storage } from '../storage/index';
import { registerHealthRoutes } from './health.routes';
import { Metrics } from './metrics';
import { registerMetricsRoute } from './metrics.routes';
import { Readiness, readinessChecks } from './readiness';

export interface OpsDeps {
  config: Config;
  db: Db;
  bus: Bus;
  storage: Storage;
  /** Answers this instance is writing now. */
  liveAnswers(): number;
  /** Clients following an answer over an event stream on this instance. */
  streamWatchers?: () => number;
}

/**
 * What operators and load balancers use (DESIGN 4, issue 26): `/healthz`, `/readyz`, and with
 * ATRIUM_METRICS_TOKEN set, `/metrics` plus the one hook that times every answer.
 */
export function registerOps(app: FastifyInstance, deps: OpsDeps): void {
  const readiness = new Readiness(readinessChecks(deps), deps.config.readyTimeoutMs, app.log);
  registerHealthRoutes(app, readiness);

  const token = deps.config.metricsToken;
  if (token === undefined) return;
  const metrics = new Metrics({
    liveAnswers: deps.liveAnswers,
    ...(deps.streamWatchers ? { streamWatchers: deps.streamWatchers } : {}),
    pool: () => poolStats(deps.db),
    redisConnections,
    dependencies: async () => {
      const report = await readiness.report();
      return Object.fromEntries(Object.entries(report.checks).map(([name, c]) => [name, c.ok]));
    },
  });
  // The route pattern, never the URL: a label per address tried would grow without bound.
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req.routeOptions.url, req.method, reply.statusCode, reply.elapsedTime);
    done();
  });
  app.addHook('onClose', async () => metrics.close());
  registerMetricsRoute(app, metrics, token);
}
