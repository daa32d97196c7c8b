import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatShareSettings } from '@atrium/shared/contract/chat-export';
import { fetchData, type ApiError } from '@/lib/api';
import { shareSettingsKey } from './get-share-settings';

function saveShareSettings(body: ChatShareSettings): Promise<ChatShareSettings> {
  return fetchData('admin', 'aigc/share/setting_save', body);
}

export function useSaveShareSettings() {
  const client = useQueryClient();
  return useMutation<ChatShareSettings, ApiError, ChatShareSettings>({
    mutationFn: saveShareSettings,
    onSuccess: (data) => client.setQueryData(shareSettingsKey, data),
  });
}
