import { useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';

/** What is left of every limit on the member in a room (issue 18), fresh after each answer. */
export function useBudget(roomId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['aigc', 'budget', roomId],
    queryFn: ({ signal }) => fetchData('member', 'aigc/chat/budget', { roomId }, { signal }),
    enabled,
    staleTime: 0,
  });
}
