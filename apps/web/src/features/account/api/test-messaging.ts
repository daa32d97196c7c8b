import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';

/** Sends a test message through the saved transports; it lands in the outbox too. */
function testMessaging(target: string): Promise<null> {
  return fetchData('admin', 'system/message/test', { target });
}

export function useTestMessaging() {
  const client = useQueryClient();
  return useMutation<null, ApiError, string>({
    mutationFn: testMessaging,
    onSettled: () => invalidateFresh(client, { queryKey: ['account', 'outbox'] }),
  });
}
