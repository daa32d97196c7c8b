import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { chatKeys } from './keys';
import { updateMessage, type MessagePages } from './list-messages';

function stopAnswer(messageId: number): Promise<MessageRecord> {
  return fetchData('member', 'aigc/chat/stop', { messageId });
}

/** Stops an answer; the cache takes the message as it ended, unless the stream got there first. */
export function useStopAnswer() {
  const client = useQueryClient();
  return useMutation<MessageRecord, ApiError, number>({
    mutationFn: stopAnswer,
    onSuccess: (stopped) => {
      client.setQueryData<MessagePages>(chatKeys.messages(stopped.conversationId), (data) =>
        updateMessage(data, stopped.id, (m) =>
          m.status === 'streaming' || m.content.length <= stopped.content.length ? stopped : m,
        ),
      );
    },
  });
}
