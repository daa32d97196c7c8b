import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { MessageRecord, StreamDelta } from '@atrium/shared/contract/chat';
import { chatKeys } from '../api/keys';
import { flattenPages, updateMessage, type MessagePages } from '../api/list-messages';
import { streamAnswer } from '../api/stream-answer';
import { invalidateFresh } from '@/lib/query-client';

const MAX_RETRIES = 30;
const retryDelay = (attempt: number) => Math.min(500 * attempt, 5_000);

/** Appends a delta when it starts where the text ends (or inside it); undefined on a gap. */
export function applyDelta(content: string, delta: StreamDelta): string | undefined {
  if (delta.offset > content.length) return undefined;
  const end = delta.offset + delta.text.length;
  if (end <= content.length) return content;
  return content.slice(0, delta.offset) + delta.text;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

interface Follow {
  client: QueryClient;
  conversationId: number;
  messageId: number;
  signal: AbortSignal;
  onReconnecting: (reconnecting: boolean) => void;
}

/**
 * Follows one answer until it ends: attaches from the length already held, applies tokens once
 * per animation frame into the query cache, and re-attaches after a dropped connection or a gap.
 */
async function followAnswer({
  client,
  conversationId,
  messageId,
  signal,
  onReconnecting,
}: Follow): Promise<void> {
  const key = chatKeys.messages(conversationId);
  const current = () =>
    flattenPages(client.getQueryData<MessagePages>(key)).find((m) => m.id === messageId);
  const apply = (change: (m: MessageRecord) => MessageRecord) =>
    client.setQueryData<MessagePages>(key, (data) => updateMessage(data, messageId, change));

  for (let attempt = 0; !signal.aborted;) {
    const message = current();
    if (!message || message.status !== 'streaming') return;
    const attemptController = new AbortController();
    const stopAttempt = () => attemptController.abort();
    signal.addEventListener('abort', stopAttempt);
    const pending: StreamDelta[] = [];
    const state = { frame: 0, gap: false };
    const flush = () => {
      state.frame = 0;
      if (pending.length === 0) return;
      const deltas = pending.splice(0);
      apply((m) => {
        let content = m.content;
        for (const delta of deltas) {
          const next = applyDelta(content, delta);
          if (next === undefined) {
            state.gap = true;
            attemptController.abort();
            break;
          }
          content = next;
        }
        return content === m.content ? m : { ...m, content };
      });
    };
    const end = await streamAnswer(
      messageId,
      message.content.length,
      {
        onDelta: (delta) => {
          pending.push(delta);
          state.frame ||= requestAnimationFrame(flush);
        },
        onDone: (done) => {
          cancelAnimationFrame(state.frame);
          flush();
          apply((m) => ({
            ...m,
            status: done.status,
            promptTokens: done.usage.promptTokens,
            completionTokens: done.usage.completionTokens,
            tokensEstimated: done.usage.estimated,
          }));
        },
        onError: (error) => {
          cancelAnimationFrame(state.frame);
          flush();
          const { errorKey, errorParams } = error;
          apply((m) => ({ ...m, status: error.status, error: error.msg, errorKey, errorParams }));
        },
      },
      attemptController.signal,
    );
    cancelAnimationFrame(state.frame);
    flush();
    signal.removeEventListener('abort', stopAttempt);
    if (end === 'ended' || end === 'refused' || signal.aborted) return;
    if (end === 'aborted' && !state.gap) return;
    attempt += 1;
    if (attempt > MAX_RETRIES) {
      await invalidateFresh(client, { queryKey: key });
      return;
    }
    onReconnecting(true);
    await sleep(state.gap ? 0 : retryDelay(attempt), signal);
    onReconnecting(false);
  }
}

/**
 * Follows every answer of the conversation that is still being written, so a reload or a
 * second tab continues where the page left off. Answers are written by the server whether or
 * not anyone watches; leaving the page only stops following.
 */
export function useAnswerStreams(
  conversationId: number | undefined,
  messages: MessageRecord[],
): { reconnecting: boolean } {
  const client = useQueryClient();
  const following = useRef(new Map<number, AbortController>());
  const [reconnecting, setReconnecting] = useState(0);
  const streamingKey = messages
    .filter((m) => m.role === 'assistant' && m.status === 'streaming')
    .map((m) => m.id)
    .join(',');

  useEffect(() => {
    const followed = following.current;
    return () => {
      for (const controller of followed.values()) controller.abort();
      followed.clear();
    };
  }, [conversationId]);

  useEffect(() => {
    if (conversationId === undefined || streamingKey === '') return;
    const followed = following.current;
    for (const messageId of streamingKey.split(',').map(Number)) {
      if (followed.has(messageId)) continue;
      const controller = new AbortController();
      followed.set(messageId, controller);
      void followAnswer({
        client,
        conversationId,
        messageId,
        signal: controller.signal,
        onReconnecting: (on) => setReconnecting((n) => n + (on ? 1 : -1)),
      }).finally(() => {
        if (followed.get(messageId) === controller) followed.delete(messageId);
      });
    }
  }, [client, conversationId, streamingKey]);

  return { reconnecting: reconnecting > 0 };
}
