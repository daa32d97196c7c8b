import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { chatKeys } from './keys';
import { updateMessage, type MessagePages } from './list-messages';

function regenerateAnswer(messageId: number): Promise<MessageRecord> {
  return fetchData('member', 'aigc/chat/regenerate', { messageId });
}

/**
 * Writes the latest answer again as a new version of it: the new answer (empty, streaming, with
 * the ids of every version) takes the place of the one shown, which stays one switch away.
 */
export function useRegenerateAnswer() {
  const client = useQueryClient();
  return useMutation<MessageRecord, ApiError, number>({
    mutationFn: regenerateAnswer,
    onSuccess: (version, shownId) => {
      client.setQueryData<MessagePages>(chatKeys.messages(version.conversationId), (data) =>
        updateMessage(data, shownId, () => version),
      );
    },
  });
}
