import { ok } from '@atrium/shared';
import { adminsCalls as calls } from '@atrium/shared/contract/admins';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { AdminAccountsService } from './admin-accounts.service';

export function registerAdminsRoutes(app: FastifyInstance, service: AdminAccountsService): void {
  route(app, calls['admins/list'], async ({ body }) => ok(await service.list(body)));

  route(app, calls['admins/options'], async () => ok({ roles: await service.roleOptions() }));

  route(app, calls['admins/create'], async ({ admin, body }) =>
    ok(await service.create(admin, body), 'Add Success'),
  );

  route(app, calls['admins/edit'], async ({ admin, body }) =>
    ok(await service.edit(admin, body.id, body), 'Edit Success'),
  );

  route(app, calls['admins/disable'], async ({ admin, body }) =>
    ok(await service.setDisabled(admin, body.id, true), 'Disabled'),
  );

  route(app, calls['admins/enable'], async ({ admin, body }) =>
    ok(await service.setDisabled(admin, body.id, false), 'Enabled'),
  );

  route(app, calls['admins/reset_password'], async ({ admin, body }) => {
    await service.resetPassword(admin, body.id, body.password);
    return ok(null, 'Password changed');
  });

  route(app, calls['admins/delete'], async ({ admin, body }) => {
    await service.delete(admin, body.id);
    return ok(null, 'Delete Success');
  });
}
