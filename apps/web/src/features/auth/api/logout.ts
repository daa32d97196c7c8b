import { useMutation } from '@tanstack/react-query';
import { request, runningArea } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { useApiStore } from '@/stores/api-store';
import { useLazyStore } from '@/stores/lazy-store';
import { usePanelStore } from '@/stores/panel-store';
import { usePermissionStore } from '@/stores/permission-store';
import { useUserStore } from '@/stores/user-store';
import { refreshAppConfig } from '@/features/app';

/**
 * Signs out. The local session is dropped even when the server can't be reached: the user asked
 * to leave, and a stale token must not linger in the cookie.
 */
async function logout(): Promise<void> {
  await request(runningArea(), 'auth/logout', {}, { successToast: false, errorToast: false });
  useApiStore.getState().clearToken();
  useUserStore.getState().reset();
  usePermissionStore.getState().reset();
  usePanelStore.getState().setMenus([]);
  usePanelStore.getState().setRules([]);
  const lazy = useLazyStore.getState();
  for (const name of Object.keys(lazy.status)) lazy.clear(name);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'app' });
  await refreshAppConfig().catch(() => undefined);
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
