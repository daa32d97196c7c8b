import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberCreateRequest, MemberView } from '@atrium/shared/contract/members';
import { fetchData, type ApiError } from '@/lib/api';
import { invalidateFresh } from '@/lib/query-client';
import { memberKeys } from './keys';

function createMember(body: MemberCreateRequest) {
  return fetchData('admin', 'members/create', body);
}

export function useCreateMember() {
  const client = useQueryClient();
  return useMutation<MemberView, ApiError, MemberCreateRequest>({
    mutationFn: createMember,
    onSuccess: () => invalidateFresh(client, { queryKey: memberKeys.all }),
  });
}
