import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatShareCreateRequest, ChatShareRecord } from '@atrium/shared/contract/chat-export';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { shareKeys } from './list-shares';

function createShare(body: ChatShareCreateRequest): Promise<ChatShareRecord> {
  return fetchData('member', 'aigc/share/create', body);
}

export function useCreateShare() {
  const client = useQueryClient();
  return useMutation<ChatShareRecord, ApiError, ChatShareCreateRequest>({
    mutationFn: createShare,
    onSuccess: () => invalidateFresh(client, { queryKey: shareKeys.list }),
  });
}
