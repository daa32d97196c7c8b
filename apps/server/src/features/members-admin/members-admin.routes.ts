import { ok } from '@atrium/shared';
import {
  memberCreateRequest,
  memberListRequest,
  memberPasswordRequest,
} from '@atrium/shared/contract/members-admin';
import { idRequest } from '@atrium/shared/contract/paging';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { MembersAdminService } from './members-admin.service';

export const membersRule = 'member';
const base = '/admin/api/members';

export function registerMembersAdminRoutes(app: FastifyInstance, service: MembersAdminService) {
  route(app, {
    area: 'admin',
    rule: membersRule,
    path: `${base}/list`,
    body: memberListRequest,
    handler: async ({ body }) => ok(await service.list(body)),
  });

  route(app, {
    area: 'admin',
    rule: membersRule,
    path: `${base}/get`,
    body: idRequest,
    handler: async ({ body }) => ok(await service.get(body.id)),
  });

  route(app, {
    area: 'admin',
    rule: membersRule,
    path: `${base}/create`,
    body: memberCreateRequest,
    handler: async ({ body }) => ok(await service.create(body), 'Add Success'),
  });

  route(app, {
    area: 'admin',
    rule: membersRule,
    path: `${base}/disable`,
    body: idRequest,
    handler: async ({ body }) => ok(await service.setDisabled(body.id, true), 'Disabled'),
  });

  route(app, {
    area: 'admin',
    rule: membersRule,
    path: `${base}/enable`,
    body: idRequest,
    handler: async ({ body }) => ok(await service.setDisabled(body.id, false), 'Enabled'),
  });

  route(app, {
    area: 'admin',
    rule: membersRule,
    path: `${base}/reset_password`,
    body: memberPasswordRequest,
    handler: async ({ body }) => {
      await service.resetPassword(body.id, body.password);
      return ok(null, 'Password changed');
    },
  });
}
