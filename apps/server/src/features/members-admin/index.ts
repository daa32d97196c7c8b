import type { FastifyInstance } from 'fastify';
import { registerMembersAdminRoutes } from './members-admin.routes';
import { MembersAdminService } from './members-admin.service';

/** Member accounts as admins run them (DESIGN 7). */
export function registerMembersAdminFeature(app: FastifyInstance): void {
  const { db, members, sessions, now } = app.services;
  registerMembersAdminRoutes(app, new MembersAdminService(db, members, sessions, now));
}
