import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SiteSettings } from '@atrium/shared/contract/site-settings';
import { fetchData, type ApiError } from '@/lib/api';
import { siteSettingsKeys } from './get-site-settings';

function saveSiteSettings(settings: SiteSettings) {
  return fetchData('admin', 'setting/save', { settings });
}

export function useSaveSiteSettings() {
  const client = useQueryClient();
  return useMutation<SiteSettings, ApiError, SiteSettings>({
    mutationFn: saveSiteSettings,
    onSuccess: (saved) => client.setQueryData(siteSettingsKeys.all, saved),
  });
}
