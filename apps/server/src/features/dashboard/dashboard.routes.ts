import { ok } from '@atrium/shared';
import { dashboardCalls as calls } from '@atrium/shared/contract/dashboard';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { DashboardService } from './dashboard.service';

export function registerDashboardRoutes(app: FastifyInstance, service: DashboardService): void {
  route(app, calls['dashboard/stats'], async ({ body }) => ok(await service.stats(body)));
}
