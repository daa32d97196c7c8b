import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ChatSendRequest,
  ChatSendResponse,
  ConversationRecord,
} from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { chatKeys } from './keys';
import { appendMessages, type MessagePages } from './list-messages';

function sendMessage(body: ChatSendRequest): Promise<ChatSendResponse> {
  return fetchData('member', 'aigc/chat/send', body);
}

/**
 * Sends (to a new conversation when `conversationId` is 0: the server creates it with the
 * question); the question and the (streaming) answer join the conversation's newest page.
 */
export function useSendMessage(roomId: number) {
  const client = useQueryClient();
  return useMutation<ChatSendResponse, ApiError, ChatSendRequest>({
    mutationFn: sendMessage,
    onSuccess: (sent) => {
      const { conversationId, createdAt } = sent.userMessage;
      client.setQueryData<MessagePages>(chatKeys.messages(conversationId), (data) =>
        appendMessages(data, [sent.userMessage, sent.assistantMessage]),
      );
      // The server titles a new conversation after its first question.
      void invalidateFresh(client, { queryKey: chatKeys.conversations(roomId) });
      client.setQueryData<ConversationRecord[]>(chatKeys.conversations(roomId), (list) => {
        if (!list) return list;
        const current = list.find((c) => c.id === conversationId) ?? {
          id: conversationId,
          roomId,
          title: sent.userMessage.content.split('\n')[0]?.slice(0, 40) ?? '',
          createdAt,
          updatedAt: createdAt,
        };
        return [current, ...list.filter((c) => c.id !== conversationId)];
      });
    },
  });
}
