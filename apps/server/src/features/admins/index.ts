import type { FastifyInstance } from 'fastify';
import { AdminAccountsService } from './admin-accounts.service';
import { registerAdminsRoutes } from './admins.routes';

export { AdminsService } from './admins.service';

/** Admin accounts (DESIGN 7): list, create, edit, disable, reset password, delete. */
export function registerAdminsFeature(app: FastifyInstance): void {
  const { db, admins, now, principals } = app.services;
  registerAdminsRoutes(app, new AdminAccountsService(db, admins, now, principals));
}
