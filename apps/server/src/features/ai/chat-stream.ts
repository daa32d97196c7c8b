import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type { ProviderConnection, StreamCompletionRequest } from './openai-client';
import { SseLines } from './sse-lines';

/** Connections to providers are kept for the next answer, as the SDK's fetch kept them. */
const agents = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
};

/** The most of an error body read: a provider's error is a short JSON document. */
const ERROR_BODY_LIMIT = 64 * 1024;

export interface ChatStreamOptions {
  signal: AbortSignal;
  /** Until the response's headers: after them, silence is the caller's idle timeout. */
  timeoutMs: number;
  /** Each chunk of the answer, as the provider sent it, in order. */
  onChunk: (chunk: ChatCompletionChunk) => void;
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return headers;
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * Streams a chat completion (asking for usage in its last chunk) over plain node:http(s) and
 * a line splitter (sse-lines.ts), instead of the SDK's fetch and web streams: every chunk is
 * handed to `onChunk` as it is parsed. Resolves once the stream ends (`[DONE]`, or the provider
 * closing it); an abort through `signal` resolves it quietly wherever it lands. Fails with the
 * SDK's own error classes, so that `describeProviderError` words them as before: a refusal
 * (HTTP status) as `APIError.generate` makes it, an error event mid-stream as an `APIError`
 * without status, no answer in time as `APIConnectionTimeoutError`, no connection as
 * `APIConnectionError`, and a stream cut off midway as a plain `terminated` error.
 */
export function streamChatCompletion(
  connection: ProviderConnection,
  request: StreamCompletionRequest,
  options: ChatStreamOptions,
): Promise<void> {
  const body: ChatCompletionCreateParamsStreaming = {
    ...request.params,
    model: request.model,
    messages: request.messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  const payload = JSON.stringify(body);
  const url = new URL(`${connection.baseUrl.replace(/\/+$/, '')}/chat/completions`);
  const secure = url.protocol === 'https:';
  return new Promise<void>((resolve, reject) => {
    const { signal } = options;
    let settled = false;
    let responded = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    /** The request under way (the last, when a stale connection made it go again). */
    let req: ClientRequest;
    const onAbort = () => {
      req.destroy();
      settle();
    };
    const send = () =>
      (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          agent: secure ? agents.https : agents.http,
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            'content-length': Buffer.byteLength(payload),
            // A provider without a key (Ollama, llama.cpp) gets no Authorization header at all.
            ...(connection.apiKey ? { authorization: `Bearer ${connection.apiKey}` } : {}),
          },
        },
        (res) => {
          responded = true;
          clearTimeout(timer);
          res.setEncoding('utf8');
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            let text = '';
            res.on('data', (piece: string) => {
              if (text.length < ERROR_BODY_LIMIT) text += piece;
            });
            res.on('end', () => {
              const json = safeJson(text);
              settle(
                APIError.generate(
                  status,
                  json as object | undefined,
                  json === undefined ? text : undefined,
                  headersOf(res),
                ),
              );
            });
            res.on('error', (error) => settle(error));
            return;
          }
          let done = false;
          const lines = new SseLines((data) => {
            if (done || settled) return;
            if (data.startsWith('[DONE]')) {
              done = true;
              // The rest is read, not looked at, so the connection serves the next answer.
              res.resume();
              settle();
              return;
            }
            let chunk: ChatCompletionChunk & { error?: unknown };
            try {
              chunk = JSON.parse(data) as ChatCompletionChunk & { error?: unknown };
            } catch (error) {
              req.destroy();
              settle(error);
              return;
            }
            if (chunk?.error) {
              req.destroy();
              settle(new APIError(undefined, chunk.error as object, undefined, headersOf(res)));
              return;
            }
            try {
              options.onChunk(chunk);
            } catch (error) {
              req.destroy();
              settle(error);
            }
          });
          res.on('data', (piece: string) => {
            if (!settled) lines.feed(piece);
          });
          res.on('end', () => settle());
          // Closed before its end: the provider (or the network) cut the answer off.
          res.on('close', () => settle(res.complete ? undefined : new Error('terminated')));
          res.on('error', () => undefined);
        },
      );
    const timer = setTimeout(() => {
      req.destroy();
      settle(new APIConnectionTimeoutError());
    }, options.timeoutMs);
    const start = (attempt: number) => {
      const sent = send();
      sent.on('error', (error: NodeJS.ErrnoException) => {
        if (signal.aborted || settled) return settle();
        // A kept connection the provider closed as this request went out on it (both ends time
        // idle connections out, and a loaded machine widens the race): the request never reached
        // the provider, so it goes again on a new connection.
        if (!responded && sent.reusedSocket && attempt < MAX_STALE_RETRIES && isStale(error))
          return start(attempt + 1);
        settle(responded ? new Error('terminated') : new APIConnectionError({ cause: error }));
      });
      req = sent;
      sent.end(payload);
    };
    if (signal.aborted) return settle();
    signal.addEventListener('abort', onAbort, { once: true });
    start(0);
  });
}

/** How often a request goes again after a kept connection turned out closed (`isStale`). */
const MAX_STALE_RETRIES = 3;

/** The errors of writing to a connection the other end had closed. */
const isStale = (error: NodeJS.ErrnoException) =>
  error.code === 'ECONNRESET' || error.code === 'EPIPE';
