import { ok } from '@atrium/shared';
import { adminsCalls as calls } from '@atrium/shared/contract/admins';
import type { FastifyInstance } from 'fastify';
import { message, okSaying } from '../../http/envelope';
import { route } from '../../http/route';
import type { AdminAccountsService } from './admin-accounts.service';

export function registerAdminsRoutes(app: FastifyInstance, service: AdminAccountsService): void {
  route(app, calls['admins/list'], async ({ body }) => ok(await service.list(body)));

  route(app, calls['admins/options'], async () => ok({ roles: await service.roleOptions() }));

  route(app, calls['admins/create'], async ({ admin, body }) =>
    okSaying(await service.create(admin, body), message('common.addSuccess')),
  );

  route(app, calls['admins/edit'], async ({ admin, body }) =>
    okSaying(await service.edit(admin, body.id, body), message('common.editSuccess')),
  );

  route(app, calls['admins/disable'], async ({ admin, body }) =>
    okSaying(await service.setDisabled(admin, body.id, true), message('common.disabled')),
  );

  route(app, calls['admins/enable'], async ({ admin, body }) =>
    okSaying(await service.setDisabled(admin, body.id, false), message('common.enabled')),
  );

  route(app, calls['admins/reset_password'], async ({ admin, body }) => {
    await service.resetPassword(admin, body.id, body.password);
    return okSaying(null, message('admin.passwordChanged'));
  });

  route(app, calls['admins/delete'], async ({ admin, body }) => {
    await service.delete(admin, body.id);
    return okSaying(null, message('common.deleteSuccess'));
  });
}
