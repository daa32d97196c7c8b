import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatImportRequest, ChatImportResponse } from '@atrium/shared/contract/chat-export';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';

/** Imports an export file; the dialog tells how it went, so no toast. */
function importConversations(body: ChatImportRequest): Promise<ChatImportResponse> {
  return fetchData('member', 'aigc/conversation/import', body, {
    successToast: false,
    errorToast: false,
    timeoutMs: 180_000,
  });
}

export function useImportConversations() {
  const client = useQueryClient();
  return useMutation<ChatImportResponse, ApiError, ChatImportRequest>({
    mutationFn: importConversations,
    onSuccess: () => invalidateFresh(client, { queryKey: ['aigc', 'conversations'] }),
  });
}
