import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { shareKeys } from './list-shares';

function revokeShare(id: number): Promise<null> {
  return fetchData('member', 'aigc/share/revoke', { id });
}

export function useRevokeShare() {
  const client = useQueryClient();
  return useMutation<null, ApiError, number>({
    mutationFn: revokeShare,
    onSuccess: () => invalidateFresh(client, { queryKey: shareKeys.list }),
  });
}
