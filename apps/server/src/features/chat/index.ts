import type { FastifyInstance } from 'fastify';
import type { ProvidersService } from '../ai/index';
import type { ImageAccess } from '../library/index';
import type { RoomsService } from '../rooms/index';
import {
  registerChatDocsFeature,
  type ChatDocsFeature,
  type ExtractionOptions,
} from '../chat-docs/index';
import type { Storage } from '../../storage/index';
import { sqliteBusyTimeoutMs, sqliteFileOf, writeGateOf } from '../../db/index';
import { ArchiveService, registerArchiveRoutes } from './archive/index';
import {
  ChatBudgets,
  ChatQuotas,
  registerUsageRoutes,
  UsageRepository,
  UsageService,
  type ShortCache,
} from './budgets/index';
import { chatDb } from './chat.tables';
import {
  AskService,
  ChatBudgetQuery,
  ChatService,
  registerChatRoutes,
} from './conversations/index';
import { Generations, type GenerationOptions } from './generation/index';
import { registerChatSearch } from './search/index';
import { AnswerRepository, AppendThread, ChatStreams, type StreamOptions } from './streaming/index';

export { ShortCache } from './budgets/index';

/** How long another instance's room, model and quota changes may take to be seen here. */
export const SETTINGS_TTL_MS = 2_000;

/** Knobs for tests and benchmarks; production uses the defaults. */
export interface ChatOptions {
  generation?: Partial<GenerationOptions>;
  stream?: Partial<StreamOptions>;
  /** Reading attached documents (chat-docs). */
  documents?: Partial<ExtractionOptions>;
}

export interface ChatFeature {
  chat: ChatService;
  quotas: ChatQuotas;
  generations: Generations;
  streams: ChatStreams;
  /** Documents attached to conversations (issue 18). */
  documents: ChatDocsFeature;
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
    /** Where attached documents' bytes are read from (the file library's storage). */
    storage: Storage;
    /** `ATRIUM_EMBEDDING_MODEL`: the AI model giving documents' passages vectors, if any. */
    embeddingModel?: string | undefined;
    options?: ChatOptions;
  },
): Promise<ChatFeature> {
  const { db, bus, limits, settings, instances, now } = app.services;
  const options = deps.options ?? {};
  const cdb = chatDb(db);
  // On a SQLite file the flush's appends run on a thread of their own, beside the event loop.
  const file = await sqliteFileOf(db);
  const answers = new AnswerRepository(
    cdb,
    file
      ? new AppendThread({
          file,
          busyTimeoutMs: sqliteBusyTimeoutMs,
          writeTimeoutMs: 10_000,
          gate: writeGateOf(db),
        })
      : undefined,
  );
  const usage = new UsageRepository(cdb);
  const budgets = new ChatBudgets(now);
  const documents = registerChatDocsFeature(app, {
    storage: deps.storage,
    resolveModel: (modelId) => deps.providers.resolve(modelId),
    embeddingModel: deps.embeddingModel,
    roomOpen: async (roomId) => (await deps.rooms.findEnabled(roomId)) !== undefined,
    ...(options.documents ? { options: options.documents } : {}),
  });
  const generations = new Generations({
    repo: answers,
    budgets,
    bus,
    images: deps.images,
    log: app.log,
    now,
    instances,
    documents: documents.docs,
    ...(options.generation ? { options: options.generation } : {}),
  });
  await generations.init();

  const quotas = new ChatQuotas({ settings, limits, now, cache: deps.cache });
  const chat = new ChatService({
    db: cdb,
    rooms: deps.rooms,
    generations,
    now,
    documents: documents.docs,
  });
  const asks = new AskService({
    db: cdb,
    rooms: deps.rooms,
    providers: deps.providers,
    generations,
    quotas,
    budgets,
    images: deps.images,
    cache: deps.cache,
    now,
    documents: documents.docs,
  });
  const streams = new ChatStreams({
    repo: answers,
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
    await answers.close();
  });

  const budgetQuery = new ChatBudgetQuery({
    db: cdb,
    rooms: deps.rooms,
    providers: deps.providers,
    quotas,
    budgets,
    cache: deps.cache,
    documents: documents.docs,
    historyLimit: () => generations.historyLimit,
  });
  registerChatRoutes(app, { chat, asks, streams, budgets: budgetQuery });
  registerArchiveRoutes(
    app,
    new ArchiveService({ db, rooms: deps.rooms, images: deps.images, instances, now }),
  );
  await registerChatSearch(app, { db: cdb, chat });
  registerUsageRoutes(app, new UsageService(usage, deps.rooms), quotas);
  return { chat, quotas, generations, streams, documents };
}
