import type { FastifyInstance } from 'fastify';
import { registerRoomRoutes } from './rooms.routes';
import { ROOMS_LAZY_KEY, RoomsService, type ModelCatalog } from './rooms.service';

export {
  roomBudget,
  roomParams,
  ROOMS_LAZY_KEY,
  RoomsService,
  type ModelCatalog,
} from './rooms.service';

/** Chat rooms (SPEC 7.4, DESIGN 8): the admins' editor and the list members and visitors see. */
export function registerRoomsFeature(
  app: FastifyInstance,
  deps: { models: ModelCatalog; onChange: () => Promise<void> },
): RoomsService {
  const { db, now } = app.services;
  const rooms = new RoomsService(db, deps.models, now, deps.onChange);
  // Members' pages learn of room changes through the lazy-data hashes of `app/config`.
  app.lazyHashes.register(ROOMS_LAZY_KEY, () => rooms.hash());
  registerRoomRoutes(app, rooms, deps.models);
  return rooms;
}
