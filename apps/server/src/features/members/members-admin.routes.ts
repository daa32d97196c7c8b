import { ok } from '@atrium/shared';
import { membersAdminCalls as calls } from '@atrium/shared/contract/members';
import type { FastifyInstance } from 'fastify';
import { message, okSaying } from '../../http/envelope';
import { route } from '../../http/route';
import type { MembersAdminService } from './members-admin.service';

export function registerMembersAdminRoutes(app: FastifyInstance, service: MembersAdminService) {
  route(app, calls['members/list'], async ({ body }) => ok(await service.list(body)));
  route(app, calls['members/get'], async ({ body }) => ok(await service.get(body.id)));
  route(app, calls['members/create'], async ({ body }) =>
    okSaying(await service.create(body), message('common.addSuccess')),
  );
  route(app, calls['members/disable'], async ({ body }) =>
    okSaying(await service.setDisabled(body.id, true), message('common.disabled')),
  );
  route(app, calls['members/enable'], async ({ body }) =>
    okSaying(await service.setDisabled(body.id, false), message('common.enabled')),
  );
  route(app, calls['members/reset_password'], async ({ body }) => {
    await service.resetPassword(body.id, body.password);
    return okSaying(null, message('admin.passwordChanged'));
  });
}
