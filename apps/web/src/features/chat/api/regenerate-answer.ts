import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { chatKeys } from './keys';
import { updateMessage, type MessagePages } from './list-messages';

function regenerateAnswer(messageId: number): Promise<MessageRecord> {
  return fetchData('member', 'aigc/chat/regenerate', { messageId });
}

/** Writes the latest answer again: it turns back into an empty, streaming message. */
export function useRegenerateAnswer() {
  const client = useQueryClient();
  return useMutation<MessageRecord, ApiError, number>({
    mutationFn: regenerateAnswer,
    onSuccess: (restarted) => {
      client.setQueryData<MessagePages>(chatKeys.messages(restarted.conversationId), (data) =>
        updateMessage(data, restarted.id, () => restarted),
      );
    },
  });
}
