import { ok } from '@atrium/shared';
import { aiCalls as calls } from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import { message, okSaying } from '../../http/envelope';
import { route } from '../../http/route';
import type { ProvidersService } from './providers.service';

/** Admin management of providers and models (rule `aigc/model`). */
export function registerAiRoutes(app: FastifyInstance, providers: ProvidersService): void {
  route(app, calls['aigc/provider/list'], async () => ok({ records: await providers.list() }));
  route(app, calls['aigc/provider/save'], async ({ body }) =>
    okSaying(await providers.save(body), message('common.saveSuccess')),
  );
  route(app, calls['aigc/provider/delete'], async ({ body }) => {
    await providers.delete(body.id);
    return okSaying(null, message('common.deleteSuccess'));
  });
  route(app, calls['aigc/provider/test'], async ({ body }) => ok(await providers.test(body)));
  route(app, calls['aigc/provider/models'], async ({ body }) =>
    ok({ models: await providers.listedModels(body.id) }),
  );
  route(app, calls['aigc/model/save'], async ({ body }) =>
    okSaying(await providers.saveModel(body), message('common.saveSuccess')),
  );
  route(app, calls['aigc/model/delete'], async ({ body }) => {
    await providers.deleteModel(body.id);
    return okSaying(null, message('common.deleteSuccess'));
  });
}
