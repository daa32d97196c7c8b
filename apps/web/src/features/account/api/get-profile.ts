import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile } from '@atrium/shared/contract/accounts-rules';
import { fetchData } from '@/lib/api';
import { accountKeys } from './keys';

function fetchProfile(signal?: AbortSignal): Promise<Profile> {
  return fetchData('member', 'account/profile', {}, { signal });
}

const profileQueryOptions = queryOptions({
  queryKey: accountKeys.profile,
  queryFn: ({ signal }) => fetchProfile(signal),
  staleTime: 0,
});

export function useProfile() {
  return useQuery(profileQueryOptions);
}
