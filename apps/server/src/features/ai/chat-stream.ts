import { Worker } from 'node:worker_threads';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ProviderConnection, StreamCompletionRequest } from './openai-client';
import type { ReportedUsage, ResponseHeaders, StreamFailure } from './provider-stream.mjs';

export type { ReportedUsage } from './provider-stream.mjs';

/**
 * The worker sits next to this module in the sources and next to the bundle in dist (build.mjs
 * builds it there), so the same URL finds it in both.
 */
const workerFile = new URL('./provider.worker.mjs', import.meta.url);

export interface ChatStreamOptions {
  signal: AbortSignal;
  /** Until the response's headers: after them, silence is the caller's idle timeout. */
  timeoutMs: number;
  /**
   * Each chunk of the answer, in order: its first choice's text (null when it carries none) and
   * its usage (null when it reports none).
   */
  onChunk: (content: string | null, usage: ReportedUsage | null) => void;
}

interface Reading {
  onChunk: ChatStreamOptions['onChunk'];
  settle: (failure?: StreamFailure | Error) => void;
}

/** What the thread sends each turn (provider.worker.mjs). */
interface Turn {
  /** Flat: id, text, usage; id, text, usage; … */
  chunks: unknown[];
  /** Flat: id, failure (null when none); … */
  ends: unknown[];
}

/**
 * The providers' streams, read on a thread of their own (provider.worker.mjs): the event loop
 * hears each of the thread's turns as one message with every answer's chunks. Started with the
 * first stream and again after it stopped; unref'd, so it never keeps the process alive.
 */
export class ProviderThread {
  private worker: Worker | undefined;
  private readonly reading = new Map<number, Reading>();
  private nextId = 1;

  read(
    url: string,
    headers: Record<string, string | number>,
    payload: string,
    options: ChatStreamOptions,
  ): Promise<void> {
    const { signal } = options;
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return resolve();
      const worker = this.running();
      const id = this.nextId++;
      const onAbort = () => {
        worker.postMessage({ op: 'abort', id });
        settle();
      };
      const settle = (failure?: StreamFailure | Error) => {
        if (this.reading.get(id) !== reading) return;
        this.reading.delete(id);
        signal.removeEventListener('abort', onAbort);
        if (failure === undefined) resolve();
        else reject(failure instanceof Error ? failure : errorOf(failure));
      };
      const reading: Reading = {
        onChunk: (content, usage) => {
          try {
            options.onChunk(content, usage);
          } catch (error) {
            worker.postMessage({ op: 'abort', id });
            settle(error instanceof Error ? error : new Error(String(error)));
          }
        },
        settle,
      };
      this.reading.set(id, reading);
      signal.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ op: 'start', id, url, headers, payload, timeoutMs: options.timeoutMs });
    });
  }

  /** Ends the thread: the streams it reads fail, as they would if it had stopped. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.stopped(worker, 'closed');
    await worker.terminate();
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile);
    worker.unref();
    worker.on('message', ({ chunks, ends }: Turn) => {
      for (let i = 0; i < chunks.length; i += 3) {
        this.reading
          .get(chunks[i] as number)
          ?.onChunk(chunks[i + 1] as string | null, chunks[i + 2] as ReportedUsage | null);
      }
      for (let i = 0; i < ends.length; i += 2) {
        this.reading
          .get(ends[i] as number)
          ?.settle((ends[i + 1] as StreamFailure | null) ?? undefined);
      }
    });
    worker.on('error', (error) => this.stopped(worker, error.message));
    worker.on('exit', (code) => this.stopped(worker, `exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  /** The thread is done for: every stream it read fails, and the next stream starts another. */
  private stopped(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    void worker.terminate();
    const error = new Error(`the provider reader thread stopped (${why})`);
    for (const reading of [...this.reading.values()]) reading.settle(error);
  }
}

const thread = new ProviderThread();

function headersOf(raw: ResponseHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
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

/** The SDK's error for a failure, so that `describeProviderError` words it as the SDK's own. */
function errorOf(failure: StreamFailure): Error {
  switch (failure.kind) {
    case 'status': {
      const json = safeJson(failure.body);
      return APIError.generate(
        failure.status,
        json as object | undefined,
        json === undefined ? failure.body : undefined,
        headersOf(failure.headers),
      );
    }
    case 'event':
      return new APIError(
        undefined,
        failure.error as object,
        undefined,
        headersOf(failure.headers),
      );
    case 'timeout':
      return new APIConnectionTimeoutError();
    case 'connection':
      return new APIConnectionError({ cause: new Error(failure.message) });
    case 'terminated':
      return new Error('terminated');
    case 'malformed':
      return new SyntaxError(failure.message);
  }
}

/**
 * Streams a chat completion (asking for usage in its last chunk), read on the provider reader
 * thread: every chunk is handed to `onChunk` in order. Resolves once the stream ends (`[DONE]`,
 * or the provider closing it); an abort through `signal` resolves it at once, quietly. Fails
 * with the SDK's own error classes, so that `describeProviderError` words them as before: a
 * refusal (HTTP status) as `APIError.generate` makes it, an error event mid-stream as an
 * `APIError` without status, no answer in time as `APIConnectionTimeoutError`, no connection as
 * `APIConnectionError`, a stream cut off midway as a plain `terminated` error.
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
  const url = `${connection.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'content-length': Buffer.byteLength(payload),
    // A provider without a key (Ollama, llama.cpp) gets no Authorization header at all.
    ...(connection.apiKey ? { authorization: `Bearer ${connection.apiKey}` } : {}),
  };
  return thread.read(url, headers, payload, options);
}
