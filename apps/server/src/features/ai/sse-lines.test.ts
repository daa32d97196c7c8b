import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { streamChatCompletion } from './chat-stream';
import { SseLines } from './sse-lines';

/** Feeds `pieces` and answers every event as [event name, data]. */
function parse(...pieces: string[]): [string | undefined, string][] {
  const events: [string | undefined, string][] = [];
  const lines = new SseLines((data, event) => events.push([event, data]));
  for (const piece of pieces) lines.feed(piece);
  return events;
}

describe('SSE lines', () => {
  it('reads events whose lines are split anywhere across pieces', () => {
    const text = 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n';
    const whole = parse(text);
    expect(whole).toEqual([
      [undefined, '{"a":1}'],
      [undefined, '{"b":2}'],
      [undefined, '[DONE]'],
    ]);
    for (let cut = 1; cut < text.length; cut++) {
      expect(parse(text.slice(0, cut), text.slice(cut))).toEqual(whole);
    }
    expect(parse(...text.split(''))).toEqual(whole);
  });

  it('takes CRLF and CR line ends, even a CRLF split between two pieces', () => {
    expect(parse('data: one\r\n\r\ndata: two\r\r')).toEqual([
      [undefined, 'one'],
      [undefined, 'two'],
    ]);
    expect(parse('data: one\r', '\n\r', '\ndata: two\r\n', '\r\n')).toEqual([
      [undefined, 'one'],
      [undefined, 'two'],
    ]);
    // The LF after a CR that ended the last piece ends no second line: both lines are one event.
    expect(parse('data: one\r', '\ndata: two\n\n')).toEqual([[undefined, 'one\ntwo']]);
  });

  it('skips comments and unknown fields, joins multi-line data, keeps the event name', () => {
    expect(
      parse(': keep-alive\n\n', 'id: 7\nretry: 10\nevent: error\ndata: {"x":\ndata:1}\n\n'),
    ).toEqual([['error', '{"x":\n1}']]);
    // The name belongs to its own event only; a field without a colon is a field name.
    expect(parse('event: a\n\ndata\n\ndata:no space\n\n')).toEqual([
      [undefined, ''],
      [undefined, 'no space'],
    ]);
  });

  it('reads whole one-line events and whatever follows them in the same piece alike', () => {
    expect(parse('data: a\n\ndata: b\ndata: c\n\nevent: x\ndata: d\n\ndata: e\n')).toEqual([
      [undefined, 'a'],
      [undefined, 'b\nc'],
      ['x', 'd'],
    ]);
    expect(parse('data: a\n\ndata: b\r\n\r\n', 'data: c\n\ndata:d\n\n')).toEqual([
      [undefined, 'a'],
      [undefined, 'b'],
      [undefined, 'c'],
      [undefined, 'd'],
    ]);
    // An event begun in one piece is finished by the next, before its whole events.
    expect(parse('data: a\n', '\ndata: b\n\n', 'event: y\n', 'data: c\n\n')).toEqual([
      [undefined, 'a'],
      [undefined, 'b'],
      ['y', 'c'],
    ]);
  });

  it('drops an event the stream ends in the middle of', () => {
    expect(parse('data: done\n\n', 'data: unfinished\n')).toEqual([[undefined, 'done']]);
  });
});

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
    const chunks: unknown[] = [];
    const error = await streamChatCompletion(
      { baseUrl, apiKey: 'sk-test' },
      { model: 'm', messages: [{ role: 'user', content: 'hi' }], params: {} },
      { signal: new AbortController().signal, timeoutMs: 5_000, onChunk: (c) => chunks.push(c) },
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
      { choices: [{ delta: { content: 'a' } }] },
      { choices: [{ delta: { content: 'b' } }] },
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

  it('sends again, on a new connection, a request whose kept connection the provider had closed; never one on a new connection', async () => {
    const stream = 'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: [DONE]\n\n';
    // Each connection answers its first request; one that comes on a kept connection finds it
    // closed, as when the provider's idle time-out and the request cross.
    const sockets = new Map<unknown, number>();
    let requests = 0;
    const url = await provider((res) => {
      requests += 1;
      const seen = (sockets.get(res.socket) ?? 0) + 1;
      sockets.set(res.socket, seen);
      if (seen > 1) return res.socket?.destroy();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(stream);
    });
    for (let i = 0; i < 3; i++) {
      const { chunks, error } = await read(url);
      expect(error).toBeUndefined();
      expect(chunks).toEqual([{ choices: [{ delta: { content: 'a' } }] }]);
    }
    // The second and third each went twice: once on the kept connection, then on a new one.
    expect(requests).toBe(5);
    expect(sockets.size).toBe(3);

    // A new connection closed on the request: the provider may have taken it, so it is not sent
    // again, and the answer fails as a connection error.
    let taken = 0;
    const closing = await provider((res) => {
      taken += 1;
      res.socket?.destroy();
    });
    const { error } = await read(closing);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(taken).toBe(1);
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

  it('an abort resolves the stream quietly and lets the provider go', async () => {
    let gone: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (gone = resolve));
    const url = await provider((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(
        () => res.write('data: {"choices":[{"delta":{"content":"x"}}]}\n\n'),
        20,
      );
      res.on('close', () => (clearInterval(timer), gone()));
    });
    const controller = new AbortController();
    let heard = 0;
    const read = streamChatCompletion(
      { baseUrl: url, apiKey: '' },
      { model: 'm', messages: [], params: {} },
      {
        signal: controller.signal,
        timeoutMs: 5_000,
        onChunk: () => {
          heard += 1;
          if (heard === 2) controller.abort();
        },
      },
    );
    await expect(read).resolves.toBeUndefined();
    expect(heard).toBe(2);
    await closed;
  });
});
