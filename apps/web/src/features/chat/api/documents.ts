import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ConversationRecord,
  MessageListResponse,
  MessageRecord,
} from '@atrium/shared/contract/chat';
import type { DocumentRecord } from '@atrium/shared/contract/chat-docs';
import { fetchData, type ApiError } from '@/lib/api';
import { tText } from '@/lib/i18n';
import { invalidateFresh } from '@/lib/query-client';
import { chatKeys } from './keys';
import { updateMessage, type MessagePages } from './list-messages';

export const documentKeys = {
  list: (conversationId: number) => ['aigc', 'documents', conversationId] as const,
};

/** While a document is being read, its progress is asked for this often. */
const PROGRESS_POLL_MS = 1_000;

const reading = (records: readonly DocumentRecord[] | undefined) =>
  records?.some((r) => r.status === 'queued' || r.status === 'running') === true;

/** The conversation's documents, asked again every second while any is being read. */
export function useDocuments(conversationId: number | undefined) {
  return useQuery({
    queryKey: documentKeys.list(conversationId ?? 0),
    queryFn: async ({ signal }) =>
      (
        await fetchData(
          'member',
          'aigc/document/list',
          { conversationId: conversationId ?? 0 },
          { signal },
        )
      ).records,
    enabled: conversationId !== undefined,
    refetchInterval: (query) => (reading(query.state.data) ? PROGRESS_POLL_MS : false),
  });
}

export function useAttachDocuments() {
  const client = useQueryClient();
  return useMutation<
    DocumentRecord[],
    ApiError,
    { conversationId: number; roomId: number; paths: string[] }
  >({
    mutationFn: async (body) => (await fetchData('member', 'aigc/document/attach', body)).records,
    onSuccess: (records, { conversationId, roomId }) => {
      // 0: the server created the conversation with these documents.
      const id = conversationId || records[0]?.conversationId;
      if (!id) return;
      client.setQueryData(documentKeys.list(id), records);
      if (conversationId !== 0) return;
      // Listed at once (the page opens it), then as the server words it.
      const now = Date.now();
      client.setQueryData<ConversationRecord[]>(chatKeys.conversations(roomId), (list) => [
        { id, roomId, title: tText('chat.newConversation'), createdAt: now, updatedAt: now },
        ...(list ?? []).filter((c) => c.id !== id),
      ]);
      void invalidateFresh(client, { queryKey: chatKeys.conversations(roomId) });
    },
  });
}

export function useDetachDocument() {
  const client = useQueryClient();
  return useMutation<DocumentRecord[], ApiError, { conversationId: number; id: number }>({
    mutationFn: async (body) => (await fetchData('member', 'aigc/document/detach', body)).records,
    onSuccess: (records, { conversationId }) =>
      client.setQueryData(documentKeys.list(conversationId), records),
  });
}

/**
 * An answer's citations are stored as it ends; the stream only tells the end. In a conversation
 * with documents, each answer that has just ended is read once more (just it: `before` its id
 * plus one, one record) and its citations put into the cached message.
 */
export function useCitationRefresh(
  conversationId: number | undefined,
  messages: readonly MessageRecord[],
  hasDocuments: boolean,
): void {
  const client = useQueryClient();
  const streaming = useRef(new Set<number>());
  useEffect(() => {
    const ended: number[] = [];
    const now = new Set<number>();
    for (const m of messages) {
      if (m.role !== 'assistant') continue;
      if (m.status === 'streaming') now.add(m.id);
      else if (streaming.current.has(m.id)) ended.push(m.id);
    }
    streaming.current = now;
    if (!hasDocuments || conversationId === undefined) return;
    for (const id of ended) {
      void fetchData(
        'member',
        'aigc/message/list',
        { conversationId, before: id + 1, limit: 1 },
        { errorToast: false },
      )
        .then((page: MessageListResponse) => {
          const found = page.records.find((m) => m.id === id);
          if (!found) return;
          // An answer written again may cite other passages, or none.
          client.setQueryData<MessagePages>(chatKeys.messages(conversationId), (data) =>
            updateMessage(data, id, ({ citations: _old, ...m }) =>
              found.citations ? { ...m, citations: found.citations } : m,
            ),
          );
        })
        .catch(() => undefined);
    }
  }, [client, conversationId, messages, hasDocuments]);
}
