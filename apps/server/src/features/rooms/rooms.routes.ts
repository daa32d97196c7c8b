import { ok } from '@atrium/shared';
import { roomsAdminCalls, roomsMemberCalls } from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import { message, okSaying } from '../../http/envelope';
import { route } from '../../http/route';
import type { ModelCatalog, RoomsService } from './rooms.service';

export function registerRoomRoutes(
  app: FastifyInstance,
  rooms: RoomsService,
  models: ModelCatalog,
): void {
  // Members and visitors: the room list is the public face of the site (SPEC 7.4).
  route(app, roomsMemberCalls['aigc/chat_room/all'], async () =>
    ok({ records: await rooms.memberList() }),
  );
  route(app, roomsMemberCalls['aigc/chat_room/get'], async ({ body }) =>
    ok(await rooms.memberGet(body.id)),
  );

  const calls = roomsAdminCalls;
  route(app, calls['aigc/chat_room/list'], async () => ok({ records: await rooms.adminList() }));
  route(app, calls['aigc/chat_room/models'], async () =>
    ok({ records: await models.modelOptions() }),
  );
  route(app, calls['aigc/chat_room/save'], async ({ body }) =>
    okSaying(await rooms.save(body), message('common.saveSuccess')),
  );
  route(app, calls['aigc/chat_room/enable'], async ({ body }) => {
    await rooms.setEnabled(body.id, body.enabled);
    return okSaying(null, message('common.saveSuccess'));
  });
  route(app, calls['aigc/chat_room/sort'], async ({ body }) => {
    await rooms.sort(body.ids);
    return okSaying(null, message('common.saveSuccess'));
  });
  route(app, calls['aigc/chat_room/delete'], async ({ body }) => {
    await rooms.delete(body.id);
    return okSaying(null, message('common.deleteSuccess'));
  });
}
