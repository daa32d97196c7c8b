import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminRoomRecord, RoomSaveRequest } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { roomKeys } from './keys';

function saveRoom(body: RoomSaveRequest): Promise<AdminRoomRecord> {
  return fetchData('admin', 'aigc/chat_room/save', body);
}

export function useSaveRoom() {
  const client = useQueryClient();
  return useMutation<AdminRoomRecord, ApiError, RoomSaveRequest>({
    mutationFn: saveRoom,
    onSuccess: () => invalidateFresh(client, { queryKey: roomKeys.admin }),
  });
}
