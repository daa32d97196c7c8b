import { emptyRequest, ok } from '@atrium/shared';
import {
  idRequest,
  roomEnableRequest,
  roomSaveRequest,
  roomSortRequest,
} from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { ModelCatalog, RoomsService } from './rooms.service';

export const CHAT_ROOM_RULE = 'aigc/chat_room';

export function registerRoomRoutes(
  app: FastifyInstance,
  rooms: RoomsService,
  models: ModelCatalog,
): void {
  // Members and visitors: the room list is the public face of the site (SPEC 7.4).
  route(app, {
    area: 'public',
    path: '/api/aigc/chat_room/all',
    body: emptyRequest,
    handler: async () => ok({ records: await rooms.memberList() }),
  });
  route(app, {
    area: 'public',
    path: '/api/aigc/chat_room/get',
    body: idRequest,
    handler: async ({ body }) => ok(await rooms.memberGet(body.id)),
  });

  const base = '/admin/api/aigc/chat_room';
  route(app, {
    area: 'admin',
    rule: CHAT_ROOM_RULE,
    path: `${base}/list`,
    body: emptyRequest,
    handler: async () => ok({ records: await rooms.adminList() }),
  });
  route(app, {
    area: 'admin',
    rule: CHAT_ROOM_RULE,
    path: `${base}/models`,
    body: emptyRequest,
    handler: async () => ok({ records: await models.modelOptions() }),
  });
  route(app, {
    area: 'admin',
    rule: CHAT_ROOM_RULE,
    path: `${base}/save`,
    body: roomSaveRequest,
    handler: async ({ body }) => ok(await rooms.save(body), 'Save Success'),
  });
  route(app, {
    area: 'admin',
    rule: CHAT_ROOM_RULE,
    path: `${base}/enable`,
    body: roomEnableRequest,
    handler: async ({ body }) => {
      await rooms.setEnabled(body.id, body.enabled);
      return ok(null, 'Save Success');
    },
  });
  route(app, {
    area: 'admin',
    rule: CHAT_ROOM_RULE,
    path: `${base}/sort`,
    body: roomSortRequest,
    handler: async ({ body }) => {
      await rooms.sort(body.ids);
      return ok(null, 'Save Success');
    },
  });
  route(app, {
    area: 'admin',
    rule: CHAT_ROOM_RULE,
    path: `${base}/delete`,
    body: idRequest,
    handler: async ({ body }) => {
      await rooms.delete(body.id);
      return ok(null, 'Delete Success');
    },
  });
}
