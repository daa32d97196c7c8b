import { ok } from '@atrium/shared';
import { chatSearchCalls as calls } from '@atrium/shared/contract/chat-search';
import type { FastifyInstance } from 'fastify';
import { route } from '../../../http/route';
import type { ChatService } from '../conversations/index';
import { ChatSearchService } from './chat-search.service';
import { conversationIn } from '../chat-texts';
import type { ChatDb } from '../chat.tables';

/**
 * Search over all of a member's conversations (issue 18). Its SQLite indexes are merged with the
 * others' (db/fts-merge.ts).
 */
export async function registerChatSearch(
  app: FastifyInstance,
  deps: { db: ChatDb; chat: ChatService },
): Promise<ChatSearchService> {
  const search = new ChatSearchService(deps.db, deps.chat);
  if (!(await search.indexed()))
    app.log.warn(
      'pg_trgm is not available (migration 2026_11_30_2000 found no pg_trgm): conversation search runs without an index',
    );
  route(app, calls['aigc/conversation/search_all'], async ({ body, member, req }) => {
    const found = await search.search(member, body);
    const named = <T extends { conversation: { title: string } }>(hit: T): T => ({
      ...hit,
      conversation: conversationIn(hit.conversation, req.lang),
    });
    return ok({ ...found, titles: found.titles.map(named), records: found.records.map(named) });
  });
  route(app, calls['aigc/conversation/reveal'], async ({ body, member }) =>
    ok(await search.reveal(member, body.messageId)),
  );
  return search;
}
