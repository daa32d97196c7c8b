import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminRoomRecord } from '@atrium/shared/contract/chat';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { roomKeys } from './keys';

/** Saves a new order: each room's sort becomes its position in `ids`. */
function sortRooms(ids: number[]): Promise<null> {
  return fetchData('admin', 'aigc/chat_room/sort', { ids }, { successToast: false });
}

export function useSortRooms() {
  const client = useQueryClient();
  return useMutation<null, ApiError, number[]>({
    mutationFn: sortRooms,
    onMutate: (ids) => {
      client.setQueryData<AdminRoomRecord[]>(roomKeys.admin, (rooms) =>
        rooms
          ? ids.flatMap((id, sort) => {
              const room = rooms.find((r) => r.id === id);
              return room ? [{ ...room, sort }] : [];
            })
          : rooms,
      );
    },
    onSettled: () => invalidateFresh(client, { queryKey: roomKeys.admin }),
  });
}
