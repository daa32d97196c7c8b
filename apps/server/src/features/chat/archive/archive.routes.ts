import type { OutgoingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ok } from '@atrium/shared';
import {
  chatExportCalls as calls,
  chatImportMaxChars,
  chatShareAdminCalls as adminCalls,
} from '@atrium/shared/contract/chat-export';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { message, okSaying } from '../../../http/envelope';
import { route } from '../../../http/route';
import { attachmentHeader } from './archive-format';
import type { ArchiveService, ExportChunks } from './archive.service';
import { conversationIn } from '../chat-texts';

/**
 * A body carrying the file as a JSON string: escaping may double it (quotes, line ends), and
 * the file's own cap is checked with a clear message once the body is read.
 */
const importBodyLimit = chatImportMaxChars * 2 + 64 * 1024;

/** Export and import of conversations, share links and their admin setting (issue 18). */
export function registerArchiveRoutes(app: FastifyInstance, archive: ArchiveService): void {
  route(app, calls['aigc/conversation/export'], async ({ body, member, req, reply }) => {
    // Refusals (a conversation that is not the member's) answer the envelope; only then does
    // the reply become the file, written a page of conversations at a time.
    const file = await archive.export(member, body, `${req.protocol}://${req.host}`);
    try {
      await sendFile(file, req, reply);
    } finally {
      // The member's export slot, also when the file was never read (a refused write).
      await file.end();
    }
    // Ignored by Fastify: the reply was hijacked and written above.
    return ok(null);
  });

  route(
    app,
    calls['aigc/conversation/import'],
    async ({ body, member }) => {
      const result = await archive.import(member, body.file, body.roomId);
      return okSaying(
        result,
        message('chat.importedConversations', { count: result.conversations.length }),
      );
    },
    { bodyLimit: importBodyLimit },
  );

  route(app, calls['aigc/share/create'], async ({ body, member, req }) =>
    ok(
      conversationIn(await archive.createShare(member, body.conversationId, body.public), req.lang),
    ),
  );
  route(app, calls['aigc/share/list'], async ({ member, req }) => {
    const list = await archive.listShares(member);
    return ok({ ...list, records: list.records.map((record) => conversationIn(record, req.lang)) });
  });
  route(app, calls['aigc/share/revoke'], async ({ body, member }) => {
    await archive.revokeShare(member, body.id);
    return ok(null);
  });
  route(app, calls['aigc/share/view'], async ({ body, member, req, reply }) => {
    // A shared page is for the people it was sent to, never for search engines.
    reply.header('X-Robots-Tag', 'noindex, nofollow');
    return ok(conversationIn(await archive.viewShare(member, body.token), req.lang));
  });

  route(app, adminCalls['aigc/share/setting'], async () => ok(await archive.shareSettings()));
  route(app, adminCalls['aigc/share/setting_save'], async ({ body }) =>
    okSaying(await archive.saveShareSettings(body), message('common.saveSuccess')),
  );
}

/** Writes the export file as the reply, a chunk at a time. */
async function sendFile(file: ExportChunks, req: FastifyRequest, reply: FastifyReply) {
  reply.hijack();
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  reply.raw.writeHead(200, {
    ...headers,
    'content-type': file.contentType,
    'content-disposition': attachmentHeader(file.fileName),
    'cache-control': 'no-store',
  });
  try {
    await pipeline(Readable.from(file.chunks), reply.raw);
  } catch (error) {
    // A browser that left mid-way is no failure of ours; anything else is logged. Headers are
    // gone either way: the cut connection is how the browser learns the file is incomplete.
    const left = (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';
    req.log[left ? 'info' : 'error']({ err: error }, 'chat export ended early');
    reply.raw.destroy();
  }
}
