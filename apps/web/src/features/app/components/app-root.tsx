import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useConfigStore } from '@/stores/config-store';
import { useAppLifecycle, type Area } from '../hooks/use-app-lifecycle';
import { PageSpinner } from '@/components/page-spinner';

// Rarely needed, and antd's Result carries large illustrations: keep it out of the first load.
const LoadFailed = lazy(async () => ({
  default: (await import('@/components/load-failed')).LoadFailed,
}));

/** The router's root: runs the app lifecycle and holds the routes until the config is known. */
export function AppRoot({ area }: { area: Area }) {
  const query = useAppLifecycle(area);
  const init = useConfigStore((s) => s.init);
  if (init) return <Outlet />;
  if (query.isError) {
    return (
      <Suspense fallback={<PageSpinner fullHeight />}>
        <LoadFailed
          reason={query.error.message}
          retrying={query.isFetching}
          onRetry={() => void query.refetch()}
        />
      </Suspense>
    );
  }
  return <PageSpinner fullHeight />;
}
