import { ok } from '@atrium/shared';
import { authCalls } from '@atrium/shared/contract/auth';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { AppService } from './app.service';

export function registerAppRoutes(app: FastifyInstance, service: AppService): void {
  route(app, authCalls.member['app/config'], async ({ member }) =>
    ok(await service.memberConfig(member)),
  );
  route(app, authCalls.admin['app/config'], async ({ admin }) =>
    ok(await service.adminConfig(admin)),
  );
}
