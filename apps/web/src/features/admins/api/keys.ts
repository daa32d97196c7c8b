import type { AdminListRequest } from '@atrium/shared/contract/admins';

/** Query keys of administrator management; mutations invalidate `all`. */
export const adminKeys = {
  all: ['admins'] as const,
  list: (query: AdminListRequest) => ['admins', 'list', query] as const,
  options: ['admins', 'options'] as const,
};
