import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchData } from '@/lib/api';

export const dashboardDays = 30;

/** Per-day charts end today in the viewer's time zone. */
function fetchDashboardStats(signal?: AbortSignal) {
  const utcOffsetMinutes = -new Date().getTimezoneOffset();
  return fetchData(
    'admin',
    'dashboard/stats',
    { days: dashboardDays, utcOffsetMinutes },
    { signal },
  );
}

function dashboardStatsQuery() {
  return queryOptions({
    queryKey: ['dashboard', 'stats'] as const,
    queryFn: ({ signal }) => fetchDashboardStats(signal),
    staleTime: 0,
  });
}

export function useDashboardStats(enabled: boolean) {
  return useQuery({ ...dashboardStatsQuery(), enabled });
}
