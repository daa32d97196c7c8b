import type { StreamDelta, StreamDone, StreamError } from '@atrium/shared/contract/chat';
import { announce, callHeaders, readAnswer, type CallRequest } from '@/lib/api';
import { apiUrl } from '@/lib/urls';
import { useApiStore } from '@/stores/api-store';
import { StreamEventReader } from './stream-events';

export interface StreamHandlers {
  onDelta: (delta: StreamDelta) => void;
  onDone: (done: StreamDone) => void;
  onError: (error: StreamError) => void;
}

/**
 * How a stream ended: with its final event, cut off without one (reconnect from what you hold),
 * refused before it started (the envelope was handled like any API failure), or aborted by us.
 */
export type StreamEnd = 'ended' | 'closed' | 'refused' | 'aborted';

/**
 * `POST aigc/chat/stream {messageId, offset}` read with fetch and a stream reader (an
 * EventSource cannot POST or send the token header): the text past `offset`, then live tokens.
 */
export async function streamAnswer(
  messageId: number,
  offset: number,
  handlers: StreamHandlers,
  signal: AbortSignal,
): Promise<StreamEnd> {
  const { baseUrl, tokenKey, setToken } = useApiStore.getState();
  const headers = {
    ...callHeaders(),
    'Content-Type': 'application/json',
    Accept: 'text/event-stream',
  };
  const body: CallRequest<'member', 'aigc/chat/stream'> = { messageId, offset };

  let response: Response;
  try {
    response = await fetch(apiUrl('aigc/chat/stream', undefined, baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch {
    return signal.aborted ? 'aborted' : 'closed';
  }
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    if (response.status >= 500) return 'closed';
    // A refusal is the usual envelope: read, renewed and announced like any call's (SPEC 8.1).
    const { result } = readAnswer({
      status: response.status,
      statusText: response.statusText,
      text: await response.text().catch(() => ''),
      header: (name) => response.headers.get(name),
    });
    announce(result, { successToast: false, errorToast: true });
    return 'refused';
  }
  const fresh = response.headers.get(tokenKey);
  if (fresh !== null) setToken(fresh);

  const reader = response.body?.getReader();
  if (!reader) return 'closed';
  const decoder = new TextDecoder();
  const events = new StreamEventReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'closed';
      for (const event of events.feed(decoder.decode(value, { stream: true }))) {
        if (event.event === 'delta') handlers.onDelta(event.data);
        else if (event.event === 'done') {
          handlers.onDone(event.data);
          return 'ended';
        } else {
          handlers.onError(event.data);
          return 'ended';
        }
      }
    }
  } catch {
    return signal.aborted ? 'aborted' : 'closed';
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
