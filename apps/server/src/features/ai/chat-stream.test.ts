import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderThread, streamChatCompletion } from './chat-stream';

describe('streamChatCompletion', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** A provider answering every request with `write`; answers its base URL. */
  async function provider(write: (res: ServerResponse) => void): Promise<string> {
    const started = createServer((req, res) => {
      req.resume();
      req.on('end', () => write(res));
    });
    server = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(started.address() as AddressInfo).port}/v1`;
  }

  const read = async (baseUrl: string) => {
    const chunks: [string | null, unknown][] = [];
    const error = await streamChatCompletion(
      { baseUrl, apiKey: 'sk-test' },
      { model: 'm', messages: [{ role: 'user', content: 'hi' }], params: {} },
      {
        signal: new AbortController().signal,
        timeoutMs: 5_000,
        onChunk: (text, usage) => chunks.push([text, usage]),
      },
    ).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    return { chunks, error };
  };

  it('hands over each chunk, in pieces of any size, up to [DONE]', async () => {
    const body = `data: {"choices":[{"delta":{"content":"a"}}]}\r\n\r\n: note\n\ndata: {"choices":[{"delta":{"content":"b"}}]}\n\ndata: [DONE]\n\ndata: {"after":true}\n\n`;
    const url = await provider((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < body.length; i += 7) res.write(body.slice(i, i + 7));
      res.end();
    });
    const { chunks, error } = await read(url);
    expect(error).toBeUndefined();
    expect(chunks).toEqual([
      ['a', null],
      ['b', null],
    ]);
  });

  it('fails a stream cut off midway as terminated, after the chunks that arrived', async () => {
    const url = await provider((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"cho');
      setTimeout(() => res.destroy(), 30);
    });
    const { chunks, error } = await read(url);
    expect(chunks).toHaveLength(1);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('terminated');
  });

  it('fails with the SDK error classes: a refusal, an error event, no connection', async () => {
    const refused = await read(
      await provider((res) => {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'overloaded' } }));
      }),
    );
    expect(refused.error).toBeInstanceOf(APIError);
    expect(refused.error).toMatchObject({ status: 503, error: { message: 'overloaded' } });

    const broken = await read(
      await provider((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: {"error":{"message":"The model crashed"}}\n\n');
      }),
    );
    expect(broken.error).toBeInstanceOf(APIError);
    expect(broken.error).toMatchObject({
      status: undefined,
      error: { message: 'The model crashed' },
    });

    const url = await provider(() => undefined);
    server?.close();
    server?.closeAllConnections();
    const gone = await read(url.replace(/:\d+/, ':1'));
    expect(gone.error).toBeInstanceOf(APIConnectionError);
  });

  it('answers no headers in time as a connection timeout', async () => {
    const url = await provider(() => undefined);
    const error = await streamChatCompletion(
      { baseUrl: url, apiKey: '' },
      { model: 'm', messages: [], params: {} },
      { signal: new AbortController().signal, timeoutMs: 100, onChunk: () => undefined },
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  /** A provider sending a chunk every 20 ms until its client goes; answers its URL and a promise of that. */
  async function endless(): Promise<{ url: string; gone: Promise<void> }> {
    let left: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (left = resolve));
    const url = await provider((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(
        () => res.write('data: {"choices":[{"delta":{"content":"x"}}]}\n\n'),
        20,
      );
      res.on('close', () => (clearInterval(timer), left()));
    });
    return { url: `${url}/chat/completions`, gone };
  }
  const headers = { 'content-type': 'application/json' };

  it('an abort resolves at once, quietly, and the thread lets the provider go', async () => {
    const thread = new ProviderThread();
    const { url, gone } = await endless();
    const controller = new AbortController();
    let count = 0;
    const read = thread.read(url, headers, '{}', {
      signal: controller.signal,
      timeoutMs: 5_000,
      onChunk: () => {
        count += 1;
        if (count === 2) controller.abort();
      },
    });
    await expect(read).resolves.toBeUndefined();
    expect(count).toBe(2);
    await gone;
    await thread.close();
  });

  it('a chunk its caller refuses fails the stream with that error, and the provider is let go', async () => {
    const thread = new ProviderThread();
    const { url, gone } = await endless();
    const read = thread.read(url, headers, '{}', {
      signal: new AbortController().signal,
      timeoutMs: 5_000,
      onChunk: () => {
        throw new Error('over the limit');
      },
    });
    await expect(read).rejects.toThrow('over the limit');
    await gone;
    await thread.close();
  });

  it('a thread that stops fails the streams it read; the next stream starts another', async () => {
    const thread = new ProviderThread();
    const { url } = await endless();
    let heard = 0;
    const read = thread.read(url, headers, '{}', {
      signal: new AbortController().signal,
      timeoutMs: 5_000,
      onChunk: () => {
        heard += 1;
        if (heard === 1) void thread.close();
      },
    });
    await expect(read).rejects.toThrow('the provider reader thread stopped (closed)');
    const controller = new AbortController();
    const again = await thread.read(url, headers, '{}', {
      signal: controller.signal,
      timeoutMs: 5_000,
      onChunk: () => controller.abort(),
    });
    expect(again).toBeUndefined();
    await thread.close();
  });
});
