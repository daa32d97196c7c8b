import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { roomKeys } from './keys';

function deleteRoom(id: number): Promise<null> {
  return fetchData('admin', 'aigc/chat_room/delete', { id });
}

export function useDeleteRoom() {
  const client = useQueryClient();
  return useMutation<null, ApiError, number>({
    mutationFn: deleteRoom,
    onSuccess: () => invalidateFresh(client, { queryKey: roomKeys.admin }),
  });
}
