import { useEffect, useState } from 'react';
import type { RoomRecord } from '@atrium/shared/contract/chat';
import { fetchData } from '@/lib/api';
import { defineLazy, useLazyStore } from '@/stores/lazy-store';
import { roomKeys } from './keys';

const ROOMS_SET = 'Rooms';

/** `POST aigc/chat_room/all`: the enabled rooms in display order (SPEC 7.4). */
async function listRooms(): Promise<RoomRecord[]> {
  return (await fetchData('member', 'aigc/chat_room/all', {})).records;
}

/**
 * The "Rooms" lazy data set (SPEC 4.2): loaded once, and again whenever app/config reports a
 * new `hashLazyValue.Rooms` (an admin saved a room).
 */
const roomsSet = defineLazy<RoomRecord[]>(ROOMS_SET, {
  queryKey: roomKeys.member,
  queryFn: listRooms,
});

export interface RoomsState {
  rooms: RoomRecord[] | undefined;
  init: boolean;
  /** The first load failed (the API client has shown why); `retry` asks again. */
  failed: boolean;
  retry: () => void;
}

export function useRooms(): RoomsState {
  const { data, init } = roomsSet.useValue();
  const [failed, setFailed] = useState(false);
  useEffect(
    () =>
      useLazyStore.subscribe((state, previous) => {
        const now = state.status[ROOMS_SET];
        if (now === 'loading') setFailed(false);
        else if (now === undefined && previous.status[ROOMS_SET] === 'loading') setFailed(true);
      }),
    [],
  );
  return {
    rooms: data,
    init,
    failed: failed && !init,
    retry: () => {
      useLazyStore
        .getState()
        .load(ROOMS_SET)
        .catch(() => undefined);
    },
  };
}
