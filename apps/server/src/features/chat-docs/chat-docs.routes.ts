import { ok } from '@atrium/shared';
import { chatDocsCalls as calls } from '@atrium/shared/contract/chat-docs';
import type { DocumentRecord } from '@atrium/shared/contract/chat-docs';
import type { Language } from '@atrium/shared/messages/catalogue';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import { errorFields } from '../../http/stored-message';
import type { ChatDocsService } from './chat-docs.service';

/** Documents with why one cannot be read in the reader's language (stored as a message). */
const readIn = (records: DocumentRecord[], lang: Language) => ({
  records: records.map((record) => ({ ...record, error: errorFields(record.error, lang).error })),
});

/** A member's documents in a conversation (issue 18). */
export function registerChatDocsRoutes(app: FastifyInstance, docs: ChatDocsService): void {
  route(app, calls['aigc/document/list'], async ({ body, member, req }) =>
    ok(readIn(await docs.list(member, body.conversationId), req.lang)),
  );
  route(app, calls['aigc/document/attach'], async ({ body, member, req }) =>
    ok(readIn(await docs.attach(member, body.conversationId, body.paths, body.roomId), req.lang)),
  );
  route(app, calls['aigc/document/detach'], async ({ body, member, req }) =>
    ok(readIn(await docs.detach(member, body.conversationId, body.id), req.lang)),
  );
}
