import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationRecord } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { chatKeys } from './keys';

function createConversation(roomId: number): Promise<ConversationRecord> {
  return fetchData('member', 'aigc/conversation/create', { roomId });
}

export function useCreateConversation(roomId: number) {
  const client = useQueryClient();
  return useMutation<ConversationRecord, ApiError, void>({
    mutationFn: () => createConversation(roomId),
    onSuccess: (created) => {
      client.setQueryData<ConversationRecord[]>(chatKeys.conversations(roomId), (list) => [
        created,
        ...(list ?? []),
      ]);
    },
  });
}
