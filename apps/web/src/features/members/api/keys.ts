import type { MemberListRequest } from '@atrium/shared/contract/members';

/** Query keys of member management; mutations invalidate `all`. */
export const memberKeys = {
  all: ['members'] as const,
  list: (query: MemberListRequest) => ['members', 'list', query] as const,
  detail: (id: number) => ['members', 'detail', id] as const,
};
