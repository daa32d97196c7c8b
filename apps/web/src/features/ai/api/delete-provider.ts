import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { aiKeys } from './keys';

function deleteProvider(id: number): Promise<null> {
  return fetchData('admin', 'aigc/provider/delete', { id });
}

export function useDeleteProvider() {
  const client = useQueryClient();
  return useMutation<null, ApiError, number>({
    mutationFn: deleteProvider,
    onSuccess: () => invalidateFresh(client, { queryKey: aiKeys.all }),
  });
}
