import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminAppConfigResponse, AppConfigResponse } from '@atrium/shared';
import { Limits } from '@atrium/shared/limits';
import { fetchData, runningArea } from '@/lib/api';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { applyAppConfig } from '../apply-app-config';

export type AppConfig = AppConfigResponse | AdminAppConfigResponse;

export const appConfigKey = ['app', 'config'] as const;

/**
 * The app refresh (SPEC 4.1): fetches `app/config` and applies it to the client stores before the
 * query resolves, so anything awaiting the refresh sees the new user, rules and menus. Only the
 * first load reports failures; the 30 s background refresh stays quiet when the server blips.
 */
async function fetchAppConfig(quiet = false): Promise<AppConfig> {
  const data = await fetchData(
    runningArea(),
    'app/config',
    {},
    { successToast: false, errorToast: !quiet },
  );
  applyAppConfig(data);
  return data;
}

const appConfigQuery = queryOptions({
  queryKey: appConfigKey,
  queryFn: () => fetchAppConfig(appQueryClient.getQueryData(appConfigKey) !== undefined),
  refetchInterval: Limits.appRefreshMs,
  // Back on the tab (after changing settings in another one, say enabling a model's images):
  // refreshed at once rather than at the next tick, which a hidden tab does not run.
  refetchOnWindowFocus: true,
  staleTime: 0,
});

export function useAppConfig() {
  return useQuery(appConfigQuery);
}

/** Refreshes now (after login or logout) and waits until the stores hold the new answer. */
export function refreshAppConfig(): Promise<AppConfig> {
  return appQueryClient.query({ ...appConfigQuery, queryFn: () => fetchAppConfig(false) });
}
