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
