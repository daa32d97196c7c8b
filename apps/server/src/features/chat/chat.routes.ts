import { ok } from '@atrium/shared';
import { chatCalls as calls } from '@atrium/shared/contract/chat';
import { budgetCalls } from '@atrium/shared/contract/chat-budget';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route';
import type { ChatService } from './chat.service';
import { sseSink } from './sse';
import type { ChatStreams } from './stream';

/** A member's conversations, messages and the answer stream (DESIGN 8). */
export function registerChatRoutes(
  app: FastifyInstance,
  chat: ChatService,
  streams: ChatStreams,
): void {
  route(app, budgetCalls['aigc/chat/budget'], async ({ body, member }) =>
    ok(await chat.budget(member, body.roomId)),
  );
  route(app, calls['aigc/conversation/list'], async ({ body, member }) =>
    ok({ records: await chat.listConversations(member, body.roomId) }),
  );
  route(app, calls['aigc/conversation/search'], async ({ body, member }) =>
    ok({ records: await chat.searchConversations(member, body.roomId, body.keywords) }),
  );
  route(app, calls['aigc/conversation/create'], async ({ body, member }) =>
    ok(await chat.createConversation(member, body.roomId, body.title)),
  );
  route(app, calls['aigc/conversation/rename'], async ({ body, member }) =>
    ok(await chat.renameConversation(member, body.id, body.title)),
  );
  route(app, calls['aigc/conversation/delete'], async ({ body, member }) => {
    await chat.deleteConversation(member, body.id);
    return ok(null);
  });
  route(app, calls['aigc/message/list'], async ({ body, member }) =>
    ok(await chat.listMessages(member, body.conversationId, body.before, body.limit)),
  );
  route(app, calls['aigc/chat/send'], async ({ body, member }) =>
    ok(await chat.send(member, body)),
  );
  route(app, calls['aigc/chat/stop'], async ({ body, member }) =>
    ok(await chat.stop(member, body.messageId)),
  );
  route(app, calls['aigc/chat/regenerate'], async ({ body, member }) =>
    ok(await chat.regenerate(member, body.messageId)),
  );
  route(app, calls['aigc/chat/edit'], async ({ body, member }) =>
    ok(await chat.edit(member, body)),
  );
  route(app, calls['aigc/conversation/branch'], async ({ body, member }) => {
    await chat.showBranch(member, body.messageId);
    return ok(null);
  });
  route(app, calls['aigc/chat/stream'], async ({ body, member, req, reply }) => {
    // Refusals (not found, someone else's message) still answer the envelope; only then
    // does the reply become an event stream. A live answer here knows its member already.
    if (streams.liveOwner(body.messageId) !== member.id)
      await chat.ownedMessage(member, body.messageId);
    const sink = sseSink(reply);
    try {
      await streams.attach(body.messageId, body.offset, sink);
    } catch (error) {
      req.log.error({ err: error, messageId: body.messageId }, 'chat stream failed');
      sink.error({ status: 'error', msg: 'The answer stream failed: reload to see the answer' });
      sink.end();
    }
    // Ignored by Fastify: the reply was hijacked and is written by the stream.
    return ok(null);
  });
}
