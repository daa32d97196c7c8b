import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { roomKeys } from './keys';

function enableRoom(body: { id: number; enabled: boolean }): Promise<null> {
  return fetchData('admin', 'aigc/chat_room/enable', body, { successToast: false });
}

export function useEnableRoom() {
  const client = useQueryClient();
  return useMutation<null, ApiError, { id: number; enabled: boolean }>({
    mutationFn: enableRoom,
    onSuccess: () => invalidateFresh(client, { queryKey: roomKeys.admin }),
  });
}
