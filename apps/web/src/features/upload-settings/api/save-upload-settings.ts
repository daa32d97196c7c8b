import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UploadConfig } from '@atrium/shared/contract/files';
import type { UploadSettingsView } from '@atrium/shared/contract/upload-settings';
import { fetchData, type ApiError } from '@/lib/api';
import { refreshAppConfig } from '@/features/app';
import { uploadSettingsKeys } from './get-upload-settings';

function saveUploadSettings(config: UploadConfig) {
  return fetchData('admin', 'settings/upload/save', { config });
}

export function useSaveUploadSettings() {
  const client = useQueryClient();
  return useMutation<UploadSettingsView, ApiError, UploadConfig>({
    mutationFn: saveUploadSettings,
    onSuccess: (view) => {
      client.setQueryData(uploadSettingsKeys.all, view);
      // This page takes the new settings up at once; other open pages on their next refresh.
      void refreshAppConfig().catch(() => undefined);
    },
  });
}
