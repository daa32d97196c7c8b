import type { FastifyInstance } from 'fastify';
import { registerDashboardRoutes } from './dashboard.routes';
import { DashboardService } from './dashboard.service';

/** The admin dashboard's counts and charts. */
export function registerDashboardFeature(app: FastifyInstance): void {
  const { db, now } = app.services;
  registerDashboardRoutes(app, new DashboardService(db, now));
}
