import { ok } from '@atrium/shared';
import { chatCalls as calls } from '@atrium/shared/contract/chat';
import { budgetCalls } from '@atrium/shared/contract/chat-budget';
import type { FastifyInstance } from 'fastify';
import { message } from '../../../http/envelope';
import { route } from '../../../http/route';
import { conversationIn, messageIn, storedError } from '../chat-texts';
import { sseSink, type ChatStreams } from '../streaming/index';
import type { AskService } from './ask.service';
import type { ChatBudgetQuery } from './budget-query';
import type { ChatService } from './chat.service';

/** A member's conversations, messages and the answer stream (DESIGN 8). */
export function registerChatRoutes(
  app: FastifyInstance,
  {
    chat,
    asks,
    streams,
    budgets,
  }: {
    chat: ChatService;
    asks: AskService;
    streams: ChatStreams;
    budgets: ChatBudgetQuery;
  },
): void {
  route(app, budgetCalls['aigc/chat/budget'], async ({ body, member }) =>
    ok(await budgets.budget(member, body)),
  );
  route(app, calls['aigc/conversation/list'], async ({ body, member, req }) => {
    const records = await chat.listConversations(member, body.roomId);
    return ok({ records: records.map((record) => conversationIn(record, req.lang)) });
  });
  route(app, calls['aigc/conversation/search'], async ({ body, member, req }) => {
    const hits = await chat.searchConversations(member, body.roomId, body.keywords);
    return ok({
      records: hits.map((hit) => ({
        ...hit,
        conversation: conversationIn(hit.conversation, req.lang),
      })),
    });
  });
  route(app, calls['aigc/conversation/create'], async ({ body, member, req }) =>
    ok(conversationIn(await chat.createConversation(member, body.roomId, body.title), req.lang)),
  );
  route(app, calls['aigc/conversation/rename'], async ({ body, member, req }) =>
    ok(conversationIn(await chat.renameConversation(member, body.id, body.title), req.lang)),
  );
  route(app, calls['aigc/conversation/delete'], async ({ body, member }) => {
    await chat.deleteConversation(member, body.id);
    return ok(null);
  });
  route(app, calls['aigc/message/list'], async ({ body, member, req }) => {
    const list = await chat.listMessages(member, body.conversationId, body.before, body.limit);
    return ok({ ...list, records: list.records.map((record) => messageIn(record, req.lang)) });
  });
  route(app, calls['aigc/chat/send'], async ({ body, member }) =>
    ok(await asks.send(member, body)),
  );
  route(app, calls['aigc/chat/stop'], async ({ body, member, req }) =>
    ok(messageIn(await chat.stop(member, body.messageId), req.lang)),
  );
  route(app, calls['aigc/chat/regenerate'], async ({ body, member, req }) =>
    ok(messageIn(await asks.regenerate(member, body.messageId), req.lang)),
  );
  route(app, calls['aigc/chat/edit'], async ({ body, member }) =>
    ok(await asks.edit(member, body)),
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
    const sink = sseSink(reply, req.lang);
    try {
      await streams.attach(body.messageId, body.offset, sink);
    } catch (error) {
      req.log.error({ err: error, messageId: body.messageId }, 'chat stream failed');
      sink.error({ status: 'error', error: storedError(message('chat.streamFailed')) });
      sink.end();
    }
    // Ignored by Fastify: the reply was hijacked and is written by the stream.
    return ok(null);
  });
}
