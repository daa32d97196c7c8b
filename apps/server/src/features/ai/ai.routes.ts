import { emptyRequest, ok } from '@atrium/shared';
import {
  idRequest,
  modelSaveRequest,
  providerSaveRequest,
  providerTestRequest,
} from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { ProvidersService } from './providers.service';

export const AI_MODEL_RULE = 'aigc/model';

/** Admin management of providers and models (rule `aigc/model`). */
export function registerAiRoutes(app: FastifyInstance, providers: ProvidersService): void {
  const base = '/admin/api/aigc';
  route(app, {
    area: 'admin',
    rule: AI_MODEL_RULE,
    path: `${base}/provider/list`,
    body: emptyRequest,
    handler: async () => ok({ records: await providers.list() }),
  });
  route(app, {
    area: 'admin',
    rule: AI_MODEL_RULE,
    path: `${base}/provider/save`,
    body: providerSaveRequest,
    handler: async ({ body }) => ok(await providers.save(body), 'Save Success'),
  });
  route(app, {
    area: 'admin',
    rule: AI_MODEL_RULE,
    path: `${base}/provider/delete`,
    body: idRequest,
    handler: async ({ body }) => {
      await providers.delete(body.id);
      return ok(null, 'Delete Success');
    },
  });
  route(app, {
    area: 'admin',
    rule: AI_MODEL_RULE,
    path: `${base}/provider/test`,
    body: providerTestRequest,
    handler: async ({ body }) => ok(await providers.test(body)),
  });
  route(app, {
    area: 'admin',
    rule: AI_MODEL_RULE,
    path: `${base}/model/save`,
    body: modelSaveRequest,
    handler: async ({ body }) => ok(await providers.saveModel(body), 'Save Success'),
  });
  route(app, {
    area: 'admin',
    rule: AI_MODEL_RULE,
    path: `${base}/model/delete`,
    body: idRequest,
    handler: async ({ body }) => {
      await providers.deleteModel(body.id);
      return ok(null, 'Delete Success');
    },
  });
}
