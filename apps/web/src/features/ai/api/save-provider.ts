import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProviderRecord, ProviderSaveRequest } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { aiKeys } from './keys';

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
