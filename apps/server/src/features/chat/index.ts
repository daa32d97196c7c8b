import type { FastifyInstance } from 'fastify';
import type { ProvidersService } from '../ai/index';
import type { ImageAccess } from '../files/index';
import type { RoomsService } from '../rooms/index';
import { registerArchiveRoutes } from './archive.routes';
import { ArchiveService } from './archive.service';
import { registerChatSearch } from './chat-search.routes';
import { ChatRepository } from './chat.repository';
import { registerChatRoutes } from './chat.routes';
import { ChatService } from './chat.service';
import { chatDb } from './chat.tables';
import { Generations, type GenerationOptions } from './generation';
import { ChatQuotas } from './quota';
import type { ShortCache } from './short-cache';
import { ChatStreams, type StreamOptions } from './stream';
import { UsageRepository } from './usage.repository';
import { registerUsageRoutes } from './usage.routes';
import { UsageService } from './usage.service';

export { ShortCache } from './short-cache';

/** How long another instance's room, model and quota changes may take to be seen here. */
export const SETTINGS_TTL_MS = 2_000;

/** Knobs for tests and benchmarks; production uses the defaults. */
export interface ChatOptions {
  generation?: Partial<GenerationOptions>;
  stream?: Partial<StreamOptions>;
}

export interface ChatFeature {
  chat: ChatService;
  quotas: ChatQuotas;
  generations: Generations;
  streams: ChatStreams;
}

/**
 * Conversations, the server-owned answer streams, quotas and usage (DESIGN 8). `cache` holds
 * resolved rooms, models and quotas for SETTINGS_TTL_MS; the ai and rooms features clear it.
 */
export async function registerChatFeature(
  app: FastifyInstance,
  deps: {
    providers: ProvidersService;
    rooms: RoomsService;
    images: ImageAccess;
    cache: ShortCache;
    options?: ChatOptions;
  },
): Promise<ChatFeature> {
  const { db, bus, limits, settings, instances, now } = app.services;
  const options = deps.options ?? {};
  const cdb = chatDb(db);
  const repo = new ChatRepository(cdb);
  const usage = new UsageRepository(cdb);
  const generations = new Generations({
    repo,
    usage,
    bus,
    images: deps.images,
    log: app.log,
    now,
    instances,
    ...(options.generation ? { options: options.generation } : {}),
  });
  await generations.init();

  const quotas = new ChatQuotas({ settings, usage, limits, now, cache: deps.cache });
  const chat = new ChatService({
    db: cdb,
    rooms: deps.rooms,
    providers: deps.providers,
    generations,
    quotas,
    images: deps.images,
    cache: deps.cache,
    now,
  });
  const streams = new ChatStreams({
    repo,
    bus,
    generations,
    log: app.log,
    ...(options.stream ? { options: options.stream } : {}),
  });

  // Before the server stops: it waits for open responses, and event streams only end when
  // their answer does. Local answers end as interrupted; clients following an answer written
  // elsewhere are let go without a final event, so they re-attach to another instance.
  app.addHook('preClose', async () => {
    await generations.close();
    streams.close();
  });

  registerChatRoutes(app, chat, streams);
  await registerChatSearch(app, { db: cdb, chat });
  registerArchiveRoutes(
    app,
    new ArchiveService({ db, rooms: deps.rooms, images: deps.images, now }),
  );
  registerUsageRoutes(app, new UsageService(usage, deps.rooms), quotas);
  return { chat, quotas, generations, streams };
}
