import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';

/** The next question as the composer holds it: judged by the budgets as the send would be. */
export interface BudgetDraft {
  /** The open conversation; 0 for a new one. */
  conversationId: number;
  question: string;
  images: number;
}

export const budgetKeys = {
  /** Every budget query of a room: invalidated whenever a reservation starts or settles. */
  room: (roomId: number) => ['aigc', 'budget', roomId] as const,
};

/**
 * What is left of every limit on the member in a room (issue 18), and whether the next question
 * (the draft) fits and about how many more would (issue 28): the server's own reservation
 * computation, so this never says "left" while the send would be refused.
 */
export function useBudget(roomId: number, draft: BudgetDraft, enabled: boolean) {
  return useQuery({
    queryKey: [...budgetKeys.room(roomId), draft.conversationId, draft.question, draft.images],
    queryFn: ({ signal }) =>
      fetchData('member', 'aigc/chat/budget', { roomId, ...draft }, { signal }),
    enabled,
    staleTime: 0,
    // A new draft keeps the last answer shown until its own arrives.
    placeholderData: keepPreviousData,
  });
}
