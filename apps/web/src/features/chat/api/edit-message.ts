import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatSendResponse } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { chatKeys } from './keys';

interface Edit {
  conversationId: number;
  messageId: number;
  content: string;
}

/**
 * Asks a question again in other words: the server starts a branch beside the old one and
 * answers it. The conversation's pages are read again, now showing the new branch; its streaming
 * answer is then followed like any other.
 */
export function useEditMessage() {
  const client = useQueryClient();
  return useMutation<ChatSendResponse, ApiError, Edit>({
    mutationFn: ({ messageId, content }) =>
      fetchData('member', 'aigc/chat/edit', { messageId, content }),
    onSuccess: (_sent, { conversationId }) =>
      client.resetQueries({ queryKey: chatKeys.messages(conversationId) }),
  });
}

/** Shows another version of a question, with the branch that follows it. */
export function useShowVersion() {
  const client = useQueryClient();
  return useMutation<null, ApiError, { conversationId: number; messageId: number }>({
    mutationFn: ({ messageId }) => fetchData('member', 'aigc/conversation/branch', { messageId }),
    onSuccess: (_none, { conversationId }) =>
      client.resetQueries({ queryKey: chatKeys.messages(conversationId) }),
  });
}
