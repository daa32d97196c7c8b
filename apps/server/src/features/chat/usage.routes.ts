import { emptyRequest, ok } from '@atrium/shared';
import { chatQuota, usageRequest } from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { ChatQuotas } from './quota';
import type { UsageService } from './usage.service';

export const USAGE_RULE = 'aigc/usage';

export function registerUsageRoutes(
  app: FastifyInstance,
  usage: UsageService,
  quotas: ChatQuotas,
): void {
  const base = '/admin/api/aigc/usage';
  route(app, {
    area: 'admin',
    rule: USAGE_RULE,
    path: `${base}/summary`,
    body: usageRequest,
    handler: async ({ body }) => ok(await usage.summary(body)),
  });
  route(app, {
    area: 'admin',
    rule: USAGE_RULE,
    path: `${base}/quota`,
    body: emptyRequest,
    handler: async () => ok(await quotas.current()),
  });
  route(app, {
    area: 'admin',
    rule: USAGE_RULE,
    path: `${base}/quota_save`,
    body: chatQuota,
    handler: async ({ body }) => ok(await quotas.save(body), 'Save Success'),
  });
}
