import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConversationRecord } from '@atrium/shared/contract/chat';
import { fetchData } from '@/lib/api';
import { chatKeys } from './keys';

/** The member's conversations in a room, most recently active first. */
async function listConversations(
  roomId: number,
  signal?: AbortSignal,
): Promise<ConversationRecord[]> {
  const data = await fetchData('member', 'aigc/conversation/list', { roomId }, { signal });
  return data.records;
}

function listConversationsQuery(roomId: number) {
  return queryOptions({
    queryKey: chatKeys.conversations(roomId),
    queryFn: ({ signal }) => listConversations(roomId, signal),
    staleTime: 30_000,
  });
}

export function useConversations(roomId: number, enabled: boolean) {
  return useQuery({ ...listConversationsQuery(roomId), enabled });
}
