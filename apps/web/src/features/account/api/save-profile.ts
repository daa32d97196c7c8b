import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '@atrium/shared/contract/accounts-rules';
import { fetchData, type ApiError, type CallRequest } from '@/lib/api';
import { refreshAppConfig } from '@/features/app';
import { accountKeys } from './keys';

export type SaveProfileBody = CallRequest<'member', 'account/profile/save'>;

/** Saves nickname and avatar, then refreshes the config so the header shows them at once. */
async function saveProfile(body: SaveProfileBody): Promise<Profile> {
  const profile = await fetchData('member', 'account/profile/save', body, { successToast: false });
  await refreshAppConfig();
  return profile;
}

export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation<Profile, ApiError, SaveProfileBody>({
    mutationFn: saveProfile,
    onSuccess: (profile) => client.setQueryData(accountKeys.profile, profile),
  });
}
