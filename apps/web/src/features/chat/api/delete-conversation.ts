import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationRecord } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { chatKeys } from './keys';

function deleteConversation(id: number): Promise<null> {
  return fetchData('member', 'aigc/conversation/delete', { id });
}

export function useDeleteConversation(roomId: number) {
  const client = useQueryClient();
  return useMutation<null, ApiError, number>({
    mutationFn: deleteConversation,
    onSuccess: (_data, id) => {
      client.setQueryData<ConversationRecord[]>(chatKeys.conversations(roomId), (list) =>
        list?.filter((c) => c.id !== id),
      );
      client.removeQueries({ queryKey: chatKeys.messages(id) });
    },
  });
}
