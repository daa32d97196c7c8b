import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProviderRecord, ProviderSaveRequest } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { aiKeys } from './keys';
import { invalidateFresh } from '@/lib/query-client';

function saveProvider(body: ProviderSaveRequest): Promise<ProviderRecord> {
  return fetchData('admin', 'aigc/provider/save', body);
}

export function useSaveProvider() {
  const client = useQueryClient();
  return useMutation<ProviderRecord, ApiError, ProviderSaveRequest>({
    mutationFn: saveProvider,
    onSuccess: () => invalidateFresh(client, { queryKey: aiKeys.all }),
  });
}
