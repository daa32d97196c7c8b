import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ModelRecord, ModelSaveRequest } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { aiKeys } from './keys';

function saveModel(body: ModelSaveRequest): Promise<ModelRecord> {
  return fetchData('admin', 'aigc/model/save', body);
}

export function useSaveModel() {
  const client = useQueryClient();
  return useMutation<ModelRecord, ApiError, ModelSaveRequest>({
    mutationFn: saveModel,
    onSuccess: () => invalidateFresh(client, { queryKey: aiKeys.all }),
  });
}
