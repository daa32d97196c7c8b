import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';
import { chatKeys } from './keys';

/** The member's conversations in a room whose title or messages hold `keywords` (SPEC 2.6). */
export function useConversationSearch(roomId: number, keywords: string) {
  const words = keywords.trim();
  return useQuery({
    queryKey: [...chatKeys.conversations(roomId), 'search', words],
    queryFn: async ({ signal }) =>
      (
        await fetchData(
          'member',
          'aigc/conversation/search',
          { roomId, keywords: words },
          { signal },
        )
      ).records,
    enabled: words !== '',
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}
