import { QueryClient } from '@tanstack/react-query';

/**
 * The one cache of server data for a page. API failures are already shown to the user by the API
 * client, so queries don't retry behind the user's back.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/**
 * Marks the matching queries stale and reads the ones in use again, after a change on the server.
 * A read already under way may have been answered before the change: it is cancelled and made
 * again. (`invalidateQueries` alone joins a read under way of a query that has no data yet, such
 * as one showing a previous key's data meanwhile, and so keeps what that read found.)
 */
export async function invalidateFresh(
  client: QueryClient,
  filters: Parameters<QueryClient['invalidateQueries']>[0],
): Promise<void> {
  await client.cancelQueries(filters);
  await client.invalidateQueries(filters);
}
