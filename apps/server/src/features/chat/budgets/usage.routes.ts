import { ok } from '@atrium/shared';
import { usageCalls as calls } from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import { message, okSaying } from '../../../http/envelope';
import { route } from '../../../http/route';
import type { ChatQuotas } from './quota';
import type { UsageService } from './usage.service';

export function registerUsageRoutes(
  app: FastifyInstance,
  usage: UsageService,
  quotas: ChatQuotas,
): void {
  route(app, calls['aigc/usage/summary'], async ({ body }) => ok(await usage.summary(body)));
  route(app, calls['aigc/usage/quota'], async () => ok(await quotas.current()));
  route(app, calls['aigc/usage/quota_save'], async ({ body }) =>
    okSaying(await quotas.save(body), message('common.saveSuccess')),
  );
}
