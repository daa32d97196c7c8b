import { ok } from '@atrium/shared';
import {
  roleCreateRequest,
  roleEditRequest,
  roleListRequest,
} from '@atrium/shared/contract/admins';
import { idRequest } from '@atrium/shared/contract/paging';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { RolesService } from './roles.service';

export const rolesRule = 'system/role';
const base = '/admin/api/roles';

export function registerRolesRoutes(app: FastifyInstance, service: RolesService): void {
  route(app, {
    area: 'admin',
    rule: rolesRule,
    path: `${base}/list`,
    body: roleListRequest,
    handler: async () => ok({ records: await service.list() }),
  });

  route(app, {
    area: 'admin',
    rule: rolesRule,
    path: `${base}/create`,
    body: roleCreateRequest,
    handler: async ({ admin, body }) => ok(await service.create(admin, body), 'Add Success'),
  });

  route(app, {
    area: 'admin',
    rule: rolesRule,
    path: `${base}/edit`,
    body: roleEditRequest,
    handler: async ({ admin, body }) =>
      ok(await service.edit(admin, body.id, body), 'Edit Success'),
  });

  route(app, {
    area: 'admin',
    rule: rolesRule,
    path: `${base}/delete`,
    body: idRequest,
    handler: async ({ admin, body }) => {
      await service.delete(admin, body.id);
      return ok(null, 'Delete Success');
    },
  });
}
