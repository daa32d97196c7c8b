import { ok } from '@atrium/shared';
import {
  adminCreateRequest,
  adminEditRequest,
  adminListRequest,
  adminPasswordRequest,
} from '@atrium/shared/contract/admins';
import { idRequest } from '@atrium/shared/contract/paging';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { route } from '../../http/route';
import type { AdminAccountsService } from './admin-accounts.service';

export const adminsRule = 'system/admin';
const base = '/admin/api/admins';

export function registerAdminsRoutes(app: FastifyInstance, service: AdminAccountsService): void {
  route(app, {
    area: 'admin',
    rule: adminsRule,
    path: `${base}/list`,
    body: adminListRequest,
    handler: async ({ body }) => ok(await service.list(body)),
  });

  route(app, {
    area: 'admin',
    rule: adminsRule,
    path: `${base}/options`,
    body: z.strictObject({}),
    handler: async () => ok({ roles: await service.roleOptions() }),
  });

  route(app, {
    area: 'admin',
    rule: adminsRule,
    path: `${base}/create`,
    body: adminCreateRequest,
    handler: async ({ admin, body }) => ok(await service.create(admin, body), 'Add Success'),
  });

  route(app, {
    area: 'admin',
    rule: adminsRule,
    path: `${base}/edit`,
    body: adminEditRequest,
    handler: async ({ admin, body }) =>
      ok(await service.edit(admin, body.id, body), 'Edit Success'),
  });

  route(app, {
    area: 'admin',
    rule: adminsRule,
    path: `${base}/disable`,
    body: idRequest,
    handler: async ({ admin, body }) =>
      ok(await service.setDisabled(admin, body.id, true), 'Disabled'),
  });

  route(app, {
    area: 'admin',
    rule: adminsRule,
    path: `${base}/enable`,
    body: idRequest,
    handler: async ({ admin, body }) =>
      ok(await service.setDisabled(admin, body.id, false), 'Enabled'),
  });

  route(app, {
    area: 'admin',
    rule: adminsRule,
    path: `${base}/reset_password`,
    body: adminPasswordRequest,
    handler: async ({ admin, body }) => {
      await service.resetPassword(admin, body.id, body.password);
      return ok(null, 'Password changed');
    },
  });

  route(app, {
    area: 'admin',
    rule: adminsRule,
    path: `${base}/delete`,
    body: idRequest,
    handler: async ({ admin, body }) => {
      await service.delete(admin, body.id);
      return ok(null, 'Delete Success');
    },
  });
}
