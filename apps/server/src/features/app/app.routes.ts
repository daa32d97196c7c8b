import { emptyRequest, ok } from '@atrium/shared';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { AppService } from './app.service';

export function registerAppRoutes(app: FastifyInstance, service: AppService): void {
  route(app, {
    area: 'public',
    path: '/api/app/config',
    body: emptyRequest,
    handler: async ({ member }) => ok(await service.memberConfig(member)),
  });

  route(app, {
    area: 'admin',
    public: true,
    path: '/admin/api/app/config',
    body: emptyRequest,
    handler: async ({ admin }) => ok(await service.adminConfig(admin)),
  });
}
