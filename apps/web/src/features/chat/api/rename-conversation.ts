import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationRecord } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { chatKeys } from './keys';

function renameConversation(body: { id: number; title: string }): Promise<ConversationRecord> {
  return fetchData('member', 'aigc/conversation/rename', body);
}

export function useRenameConversation(roomId: number) {
  const client = useQueryClient();
  return useMutation<ConversationRecord, ApiError, { id: number; title: string }>({
    mutationFn: renameConversation,
    onSuccess: (renamed) => {
      client.setQueryData<ConversationRecord[]>(chatKeys.conversations(roomId), (list) =>
        list?.map((c) => (c.id === renamed.id ? renamed : c)),
      );
    },
  });
}
