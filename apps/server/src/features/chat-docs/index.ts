import type { FastifyInstance } from 'fastify';
import type { ResolvedModel } from '../ai/index';
import type { Storage } from '../../storage/index';
import { ChatDocsRepository } from './chat-docs.repository';
import { registerChatDocsRoutes } from './chat-docs.routes';
import { ChatDocsService } from './chat-docs.service';
import { docsDb } from './chat-docs.tables';
import { embedderFor } from './embeddings';
import { Extraction, type ExtractionOptions } from './extraction';

export { RETRIEVAL_MAX_TOKENS, type Retrieved } from './retrieval';
export type { ChatDocsService } from './chat-docs.service';
export type { ExtractionOptions } from './extraction';

export interface ChatDocsFeature {
  docs: ChatDocsService;
  extraction: Extraction;
}

/**
 * Library documents as chat context (issue 18): the attach, detach and list calls, and the
 * reading of documents' text in the background on every instance. The chat feature asks
 * `docs.retrieve` for passages before each answer and `docs.cite` after it.
 */
export function registerChatDocsFeature(
  app: FastifyInstance,
  deps: {
    storage: Storage;
    /** The AI feature's models: the embedding model's provider and key. */
    resolveModel: (modelId: number) => Promise<ResolvedModel | undefined>;
    /** Name of the embedding model (`ATRIUM_EMBEDDING_MODEL`), if any. */
    embeddingModel?: string | undefined;
    options?: Partial<ExtractionOptions>;
    /** Whether members may chat in the room (a draft's first documents create its conversation). */
    roomOpen?: (roomId: number) => Promise<boolean>;
  },
): ChatDocsFeature {
  const { db, instances, now } = app.services;
  const embedder = embedderFor(db, deps.embeddingModel, deps.resolveModel);
  const repo = new ChatDocsRepository(docsDb(db));
  const extraction = new Extraction({
    repo,
    storage: deps.storage,
    instances,
    log: app.log,
    now,
    embedder,
    ...(deps.options ? { options: deps.options } : {}),
  });
  const docs = new ChatDocsService({
    db: docsDb(db),
    extraction,
    embedder,
    log: app.log,
    now,
    ...(deps.roomOpen ? { roomOpen: deps.roomOpen } : {}),
  });
  registerChatDocsRoutes(app, docs);
  app.addHook('onReady', async () => extraction.start());
  app.addHook('preClose', async () => extraction.close());
  return { docs, extraction };
}
