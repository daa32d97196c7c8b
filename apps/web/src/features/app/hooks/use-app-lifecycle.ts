import type { AreaName } from '@atrium/shared/areas';
import { useEffect } from 'react';
import { emit } from '@/lib/events';
import { useAppConfig } from '../api/get-app-config';

export type Area = AreaName;

/**
 * Mount-time behaviour of either app (SPEC 4.1): refresh from `app/config` now and every 30 s,
 * and announce the mount.
 */
export function useAppLifecycle(area: Area) {
  const query = useAppConfig();
  useEffect(() => {
    emit('EventAppMounted', { area });
  }, [area]);
  return query;
}
