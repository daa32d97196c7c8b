import { Code, type Envelope } from '@atrium/shared/codes';
import { XsrfCookie } from '@atrium/shared/limits';
import type { StreamDelta, StreamDone, StreamError } from '@atrium/shared/contract/chat';
import { readCookie } from '@/lib/cookies';
import { toast } from '@/lib/feedback';
import { apiUrl } from '@/lib/urls';
import { useApiStore } from '@/stores/api-store';
import { SseParser } from './sse';

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

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number'
  );
}

/** A refusal answers the usual envelope: code processors (not logged in) and toasts apply. */
function handleRefusal(result: Envelope): void {
  const processor = useApiStore.getState().codeProcessors.find((p) => p.code === result.code);
  if (processor) processor.callback(result);
  else if (result.msg) toast.error(result.msg, 5);
}

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
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'is-ajax': 'true',
    Accept: 'text/event-stream',
  };
  const token = readCookie(tokenKey);
  const xsrf = readCookie(XsrfCookie);
  if (token) headers[tokenKey] = token;
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;

  let response: Response;
  try {
    response = await fetch(apiUrl('aigc/chat/stream', undefined, baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify({ messageId, offset }),
      credentials: 'same-origin',
      signal,
    });
  } catch {
    return signal.aborted ? 'aborted' : 'closed';
  }
  const fresh = response.headers.get(tokenKey);
  if (fresh !== null) setToken(fresh);
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    if (response.status >= 500) return 'closed';
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch {
      parsed = undefined;
    }
    handleRefusal(isEnvelope(parsed) ? parsed : { code: Code.Failure, msg: '', data: null });
    return 'refused';
  }

  const reader = response.body?.getReader();
  if (!reader) return 'closed';
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'closed';
      for (const event of parser.feed(decoder.decode(value, { stream: true }))) {
        const data: unknown = JSON.parse(event.data);
        if (event.event === 'delta') handlers.onDelta(data as StreamDelta);
        else if (event.event === 'done') {
          handlers.onDone(data as StreamDone);
          return 'ended';
        } else if (event.event === 'error') {
          handlers.onError(data as StreamError);
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
