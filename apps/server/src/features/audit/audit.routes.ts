import { ok } from '@atrium/shared';
import { auditCalls as calls } from '@atrium/shared/contract/audit';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index';
import { route } from '../../http/route';
import { registerAuditHook } from './audit.hook';
import { AuditService } from './audit.service';

/**
 * The audit log: the hook that records every admin write, and the calls that read it. Called
 * right after the routing decorations, before any feature registers a route.
 */
export function registerAuditFeature(
  app: FastifyInstance,
  deps: { db: Db; now: () => number },
): AuditService {
  const service = new AuditService(deps.db);
  registerAuditHook(app, service, deps.now);
  route(app, calls['audit/list'], async ({ body, req }) => ok(await service.list(body, req.lang)));
  route(app, calls['audit/options'], async ({ req }) => ok(await service.options(req.lang)));
  return service;
}
