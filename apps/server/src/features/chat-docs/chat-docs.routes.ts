import { ok } from '@atrium/shared';
import { chatDocsCalls as calls } from '@atrium/shared/contract/chat-docs';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { ChatDocsService } from './chat-docs.service';

/** A member's documents in a conversation (issue 18). */
export function registerChatDocsRoutes(app: FastifyInstance, docs: ChatDocsService): void {
  route(app, calls['aigc/document/list'], async ({ body, member }) =>
    ok({ records: await docs.list(member, body.conversationId) }),
  );
  route(app, calls['aigc/document/attach'], async ({ body, member }) =>
    ok({ records: await docs.attach(member, body.conversationId, body.paths) }),
  );
  route(app, calls['aigc/document/detach'], async ({ body, member }) =>
    ok({ records: await docs.detach(member, body.conversationId, body.id) }),
  );
}
