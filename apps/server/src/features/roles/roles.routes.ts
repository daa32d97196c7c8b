import { ok } from '@atrium/shared';
import { rolesCalls as calls } from '@atrium/shared/contract/admins';
import type { FastifyInstance } from 'fastify';
import { message, okSaying } from '../../http/envelope';
import { route } from '../../http/route';
import type { RolesService } from './roles.service';

export function registerRolesRoutes(app: FastifyInstance, service: RolesService): void {
  route(app, calls['roles/list'], async () => ok({ records: await service.list() }));

  route(app, calls['roles/create'], async ({ admin, body }) =>
    okSaying(await service.create(admin, body), message('common.addSuccess')),
  );

  route(app, calls['roles/edit'], async ({ admin, body }) =>
    okSaying(await service.edit(admin, body.id, body), message('common.editSuccess')),
  );

  route(app, calls['roles/delete'], async ({ admin, body }) => {
    await service.delete(admin, body.id);
    return okSaying(null, message('common.deleteSuccess'));
  });
}
