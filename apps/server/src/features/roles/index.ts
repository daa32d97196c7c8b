import type { FastifyInstance } from 'fastify';
import { registerRolesRoutes } from './roles.routes';
import { RolesService } from './roles.service';

/** Roles and their rules (SPEC 6): the roles table is this feature's; admins read it through here. */
export { parseRules, RolesRepository, type Role } from './roles.repository';

export function registerRolesFeature(app: FastifyInstance): void {
  const { db, now, principals } = app.services;
  registerRolesRoutes(app, new RolesService(db, now, principals));
}
