import type { FastifyInstance } from 'fastify';
import type { Bus } from '../../bus/index';
import { resolveSecret, type Config } from '../../config';
import type { Db } from '../../db/index';
import { registerAiRoutes } from '../ai/ai.routes';
import { ProvidersService } from '../ai/providers.service';
import { SecretBox } from '../ai/secret-box';
import { registerRoomRoutes } from '../rooms/rooms.routes';
import { ROOMS_LAZY_KEY, RoomsService } from '../rooms/rooms.service';
import type { SettingsRepository } from '../settings/settings.repository';
import { ChatRepository } from './chat.repository';
import { registerChatRoutes } from './chat.routes';
import { ChatService } from './chat.service';
import { chatDb } from './chat.tables';
import { Generations, type GenerationOptions } from './generation';
import { libraryImages } from './images';
import { ChatQuotas } from './quota';
import { ChatStreams, type StreamOptions } from './stream';
import { UsageRepository } from './usage.repository';
import { registerUsageRoutes } from './usage.routes';
import { UsageService } from './usage.service';
import { ShortCache } from './short-cache';

/** How long another instance's room, model and quota changes may take to be seen here. */
const SETTINGS_TTL_MS = 2_000;

/** Knobs for tests and benchmarks; production uses the defaults. */
export interface AigcOptions {
  generation?: Partial<GenerationOptions>;
  stream?: Partial<StreamOptions>;
}

export interface AigcFeature {
  providers: ProvidersService;
  rooms: RoomsService;
  chat: ChatService;
  quotas: ChatQuotas;
  generations: Generations;
  streams: ChatStreams;
}

declare module 'fastify' {
  interface FastifyInstance {
    aigc: AigcFeature;
  }
}

/**
 * AI providers and models, chat rooms and chat (issue 7, DESIGN 8). Needs the files feature
 * registered first (attached images come from the member's image library).
 */
export async function registerAigcFeature(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Db;
    bus: Bus;
    settings: SettingsRepository;
    now: () => number;
    options?: AigcOptions;
  },
): Promise<AigcFeature> {
  const { db, bus, now } = deps;
  const options = deps.options ?? {};
  const secret = deps.config.secret ?? resolveSecret(deps.config).secret ?? '';
  const cache = new ShortCache(SETTINGS_TTL_MS);
  const clearCache = () => cache.clear();
  const providers = new ProvidersService(db, new SecretBox(secret), now, app.log, clearCache);
  const rooms = new RoomsService(db, providers, now, clearCache);
  const cdb = chatDb(db);
  const repo = new ChatRepository(cdb);
  const usage = new UsageRepository(cdb);
  const images = libraryImages(db, app.filesFeature.storage);
  const generations = new Generations({
    repo,
    usage,
    bus,
    images,
    log: app.log,
    now,
    instances: app.services.instances,
    ...(options.generation ? { options: options.generation } : {}),
  });
  await generations.init();

  const quotas = new ChatQuotas({
    settings: deps.settings,
    usage,
    limits: app.services.limits,
    now,
    cache,
  });
  const chat = new ChatService({
    db: cdb,
    rooms,
    providers,
    generations,
    quotas,
    images,
    cache,
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

  app.lazyHashes.register(ROOMS_LAZY_KEY, () => rooms.hash());
  registerAiRoutes(app, providers);
  registerRoomRoutes(app, rooms, providers);
  registerChatRoutes(app, chat, streams);
  registerUsageRoutes(app, new UsageService(usage, rooms), quotas);

  const feature: AigcFeature = { providers, rooms, chat, quotas, generations, streams };
  app.decorate('aigc', feature);
  return feature;
}
