import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { aiKeys } from './keys';

function deleteModel(id: number): Promise<null> {
  return fetchData('admin', 'aigc/model/delete', { id });
}

export function useDeleteModel() {
  const client = useQueryClient();
  return useMutation<null, ApiError, number>({
    mutationFn: deleteModel,
    onSuccess: () => invalidateFresh(client, { queryKey: aiKeys.all }),
  });
}
