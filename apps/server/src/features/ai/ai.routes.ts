import { ok } from '@atrium/shared';
import { aiCalls as calls } from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { ProvidersService } from './providers.service';

/** Admin management of providers and models (rule `aigc/model`). */
export function registerAiRoutes(app: FastifyInstance, providers: ProvidersService): void {
  route(app, calls['aigc/provider/list'], async () => ok({ records: await providers.list() }));
  route(app, calls['aigc/provider/save'], async ({ body }) =>
    ok(await providers.save(body), 'Save Success'),
  );
  route(app, calls['aigc/provider/delete'], async ({ body }) => {
    await providers.delete(body.id);
    return ok(null, 'Delete Success');
  });
  route(app, calls['aigc/provider/test'], async ({ body }) => ok(await providers.test(body)));
  route(app, calls['aigc/provider/models'], async ({ body }) =>
    ok({ models: await providers.listedModels(body.id) }),
  );
  route(app, calls['aigc/model/save'], async ({ body }) =>
    ok(await providers.saveModel(body), 'Save Success'),
  );
  route(app, calls['aigc/model/delete'], async ({ body }) => {
    await providers.deleteModel(body.id);
    return ok(null, 'Delete Success');
  });
}
