import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { ChatRevealResponse, ChatSearchResponse } from '@atrium/shared/contract/chat-search';
import { fetchData, type ApiError } from '@/lib/api';
import { chatKeys } from './keys';

/**
 * The member's messages and conversation titles holding `keywords`, in every room or in `roomId`
 * (issue 18): newest first, page after page by the answer's cursor.
 */
export function useChatSearch(keywords: string, roomId: number | undefined) {
  const words = keywords.trim();
  return useInfiniteQuery({
    queryKey: ['aigc', 'search', words, roomId ?? 0] as const,
    queryFn: ({ pageParam, signal }) =>
      fetchData(
        'member',
        'aigc/conversation/search_all',
        {
          keywords: words,
          ...(roomId ? { roomId } : {}),
          ...(pageParam ? { before: pageParam } : {}),
        },
        { signal },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: ChatSearchResponse) => last.next ?? undefined,
    enabled: words !== '',
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

/**
 * Makes a found message visible: the server switches its conversation to the message's branch
 * when another one was shown, and the conversation's pages are then read again.
 */
export function useRevealMessage() {
  const client = useQueryClient();
  return useMutation<ChatRevealResponse, ApiError, number>({
    mutationFn: (messageId: number) =>
      fetchData('member', 'aigc/conversation/reveal', { messageId }),
    onSuccess: async (revealed) => {
      if (revealed.switchedBranch)
        await client.resetQueries({ queryKey: chatKeys.messages(revealed.conversationId) });
    },
  });
}
