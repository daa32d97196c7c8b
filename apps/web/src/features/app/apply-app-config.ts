import type { AdminAppConfigResponse, AppConfigResponse } from '@atrium/shared';
import { emit } from '@/lib/events';
import { confirmDialog } from '@/lib/feedback';
import { t } from '@/lib/i18n';
import { useConfigStore } from '@/stores/config-store';
import { applyLazyHashes } from '@/stores/lazy-store';
import { usePanelStore } from '@/stores/panel-store';
import { usePermissionStore } from '@/stores/permission-store';
import { useReloadStore } from '@/stores/reload-store';
import { useUserStore } from '@/stores/user-store';

function isAdminConfig(
  data: AppConfigResponse | AdminAppConfigResponse,
): data is AdminAppConfigResponse {
  return 'rules' in data && Array.isArray(data.rules);
}

/** Asks once per new deployment; cancel lets a later deployment ask again (SPEC 4.3). */
export async function promptNewVersion(
  reload: () => void = () => window.location.reload(),
): Promise<void> {
  const confirmed = await confirmDialog(t('app.newVersion'));
  if (confirmed) reload();
  else useReloadStore.getState().closeUpdateDialog();
}

/** Puts one `app/config` answer into the client stores and tells listeners the app updated. */
export function applyAppConfig(data: AppConfigResponse | AdminAppConfigResponse): void {
  useConfigStore.getState().setConfig(data.config);
  useUserStore.getState().setUser(data.user);
  if (isAdminConfig(data)) {
    usePanelStore.getState().setRules(data.rules);
    usePanelStore.getState().setMenus(data.menus);
    usePermissionStore.getState().setRules(data.rules);
  } else {
    // Members hold no admin rules; checks answer "no" instead of waiting forever.
    usePermissionStore.getState().setRules([]);
  }
  if (useReloadStore.getState().receiveHashPC(data.hashPC)) void promptNewVersion();
  void applyLazyHashes(data.hashLazyValue ?? {});
  emit('UpdateApp', { area: isAdminConfig(data) ? 'admin' : 'member' });
}
