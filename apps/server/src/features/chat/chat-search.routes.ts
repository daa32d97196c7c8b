import { ok } from '@atrium/shared';
import { chatSearchCalls as calls } from '@atrium/shared/contract/chat-search';
import type { FastifyInstance } from 'fastify';
import { every } from '../../every';
import { route } from '../../http/route';
import type { ChatService } from './chat.service';
import { ChatSearchService } from './chat-search.service';
import type { ChatDb } from './chat.tables';

/**
 * Pages of the SQLite search indexes merged per step (as the file name index does, see
 * files/name-index.ts): a few milliseconds of the one connection, a no-op once merged.
 */
const MERGE_PAGES = 32;

/**
 * Search over all of a member's conversations (issue 18). `mergeMs`: how often a step of merging
 * the FTS segments runs (SQLite); 0 never.
 */
export async function registerChatSearch(
  app: FastifyInstance,
  deps: { db: ChatDb; chat: ChatService; mergeMs?: number },
): Promise<ChatSearchService> {
  const search = new ChatSearchService(deps.db, deps.chat);
  if (!(await search.indexed()))
    app.log.warn(
      'pg_trgm is not available (migration 2026_11_30_2000 found no pg_trgm): conversation search runs without an index',
    );
  const mergeMs = deps.mergeMs ?? 1000;
  if (mergeMs > 0) {
    const stop = every(
      mergeMs,
      () => search.merge(MERGE_PAGES),
      (error) => app.log.warn({ err: error }, 'merging the conversation search index failed'),
    );
    app.addHook('onClose', async () => stop());
  }
  route(app, calls['aigc/conversation/search_all'], async ({ body, member }) =>
    ok(await search.search(member, body)),
  );
  route(app, calls['aigc/conversation/reveal'], async ({ body, member }) =>
    ok(await search.reveal(member, body.messageId)),
  );
  return search;
}
