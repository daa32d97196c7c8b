import { ok } from '@atrium/shared';
import { dashboardRequest } from '@atrium/shared/contract/dashboard';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { DashboardService } from './dashboard.service';

export const dashboardRule = 'dashboard';

export function registerDashboardRoutes(app: FastifyInstance, service: DashboardService): void {
  route(app, {
    area: 'admin',
    rule: dashboardRule,
    path: '/admin/api/dashboard/stats',
    body: dashboardRequest,
    handler: async ({ body }) => ok(await service.stats(body)),
  });
}
