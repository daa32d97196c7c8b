import type { FastifyInstance } from 'fastify';
import { registerMembersAdminRoutes } from './members-admin.routes';
import { MembersAdminService } from './members-admin.service';

/**
 * Member accounts: the service every member-facing feature shares (AppServices.members), and
 * the accounts as admins run them (DESIGN 7), the web's `features/members`.
 */
export { MembersService, usernameTaken } from './members.service';
export type { Member } from './members.repository';

export function registerMembersFeature(app: FastifyInstance): void {
  const { db, members, sessions, now } = app.services;
  registerMembersAdminRoutes(app, new MembersAdminService(db, members, sessions, now));
}
