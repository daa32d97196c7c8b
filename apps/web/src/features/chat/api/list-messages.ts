import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { MessageListResponse, MessageRecord } from '@atrium/shared/contract/chat';
import { messagePageSize } from '@atrium/shared/contract/chat-limits';
import { fetchData } from '@/lib/api';
import { chatKeys } from './keys';

/** A page of messages older than `before` (or the newest page), oldest first within it. */
function listMessages(
  conversationId: number,
  before: number | undefined,
  signal?: AbortSignal,
): Promise<MessageListResponse> {
  return fetchData(
    'member',
    'aigc/message/list',
    { conversationId, limit: messagePageSize, ...(before ? { before } : {}) },
    { signal },
  );
}

export type MessagePages = InfiniteData<MessageListResponse>;

/** Pages run from the newest backwards: page 0 is the latest, the next page is older. */
function listMessagesQuery(conversationId: number) {
  return infiniteQueryOptions({
    queryKey: chatKeys.messages(conversationId),
    queryFn: ({ pageParam, signal }) => listMessages(conversationId, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.records[0]?.id : undefined),
    // Streams keep the cache current; a refetch would reset pages while reading history.
    staleTime: Infinity,
  });
}

export function useMessages(conversationId: number | undefined) {
  return useInfiniteQuery({
    ...listMessagesQuery(conversationId ?? 0),
    enabled: conversationId !== undefined,
  });
}

/** Every loaded message, oldest first. */
export function flattenPages(data: MessagePages | undefined): MessageRecord[] {
  if (!data) return [];
  const all: MessageRecord[] = [];
  for (let i = data.pages.length - 1; i >= 0; i--) all.push(...(data.pages[i]?.records ?? []));
  return all;
}

/** The pages with one message replaced (matched by id), keeping every other object as it was. */
export function updateMessage(
  data: MessagePages | undefined,
  id: number,
  change: (message: MessageRecord) => MessageRecord,
): MessagePages | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    const index = page.records.findIndex((m) => m.id === id);
    if (index < 0) return page;
    const current = page.records[index];
    if (!current) return page;
    const next = change(current);
    if (next === current) return page;
    changed = true;
    const records = [...page.records];
    records[index] = next;
    return { ...page, records };
  });
  return changed ? { ...data, pages } : data;
}

/** The pages with messages appended to the newest page (after a send). */
export function appendMessages(
  data: MessagePages | undefined,
  added: MessageRecord[],
): MessagePages {
  if (!data || data.pages.length === 0) {
    return { pages: [{ records: added, hasMore: false }], pageParams: [undefined] };
  }
  const [newest, ...older] = data.pages;
  const known = new Set(newest?.records.map((m) => m.id));
  const records = [...(newest?.records ?? []), ...added.filter((m) => !known.has(m.id))];
  return { ...data, pages: [{ records, hasMore: newest?.hasMore ?? false }, ...older] };
}
