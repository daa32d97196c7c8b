import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminRoomRecord, ModelOption } from '@atrium/shared/contract/chat';
import { fetchData } from '@/lib/api';
import { roomKeys } from './keys';

/** Every room, enabled or not, in display order (admin). */
async function listAdminRooms(signal?: AbortSignal): Promise<AdminRoomRecord[]> {
  return (await fetchData('admin', 'aigc/chat_room/list', {}, { signal })).records;
}

function listAdminRoomsQuery() {
  return queryOptions({
    queryKey: roomKeys.admin,
    queryFn: ({ signal }) => listAdminRooms(signal),
    staleTime: 0,
  });
}

export function useAdminRooms() {
  return useQuery(listAdminRoomsQuery());
}

/** The models a room may use, for the editor's select. */
async function listModelOptions(signal?: AbortSignal): Promise<ModelOption[]> {
  return (await fetchData('admin', 'aigc/chat_room/models', {}, { signal })).records;
}

export function useModelOptions(enabled: boolean) {
  return useQuery({
    queryKey: roomKeys.models,
    queryFn: ({ signal }) => listModelOptions(signal),
    staleTime: 0,
    enabled,
  });
}
