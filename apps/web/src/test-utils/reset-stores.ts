import { waitFor } from '@testing-library/react';
import { queryClient } from '@/lib/query-client';
import { useApiStore } from '@/stores/api-store';
import { useConfigStore } from '@/stores/config-store';
import { useLazyStore } from '@/stores/lazy-store';
import { usePanelStore } from '@/stores/panel-store';
import { usePermissionStore } from '@/stores/permission-store';
import { useReloadStore } from '@/stores/reload-store';
import { useUserStore } from '@/stores/user-store';
import { useDialogQueue, useToastQueue } from '@/lib/feedback';

/** Puts every page-wide store and the query cache back to how a fresh page starts. */
export function resetStores(): void {
  queryClient.clear();
  const reset = <T>(store: {
    setState: (state: T, replace: true) => void;
    getInitialState: () => T;
  }) => store.setState(store.getInitialState(), true);
  reset(useApiStore);
  reset(useConfigStore);
  reset(useLazyStore);
  reset(usePanelStore);
  reset(usePermissionStore);
  reset(useReloadStore);
  reset(useUserStore);
  reset(useDialogQueue);
  reset(useToastQueue);
}

/**
 * Waits until no query or mutation is in flight, so a late answer (a logout's config refresh, say)
 * cannot land in the stores of the next test.
 */
export async function settleQueries(): Promise<void> {
  await waitFor(() => {
    if (queryClient.isFetching() + queryClient.isMutating() > 0) throw new Error('still fetching');
  });
}
