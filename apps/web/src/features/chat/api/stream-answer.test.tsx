import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { StreamDelta, StreamDone, StreamError } from '@atrium/shared/contract/chat';
import { removeCookie, writeCookie } from '@/lib/cookies';
import { setLanguage } from '@/lib/i18n';
import { useApiStore, notLoggedInProcessor } from '@/stores/api-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { renderWithProviders } from '@/test-utils/render';
import { streamAnswer } from './stream-answer';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((_req, res) => sendJson(res, { code: 0, msg: '', data: null }));
});
afterAll(() => server.close());
beforeEach(() => {
  setLanguage('en');
  server.requests.length = 0;
  useApiStore.setState({ codeProcessors: [notLoggedInProcessor] });
  useApiStore.getState().configure({ baseUrl: server.url, tokenKey: 'api-token' });
  removeCookie('api-token');
  renderWithProviders(<main />);
});
afterEach(() => cleanup());

function collect() {
  const seen: { deltas: StreamDelta[]; done?: StreamDone; error?: StreamError } = { deltas: [] };
  return {
    seen,
    handlers: {
      onDelta: (d: StreamDelta) => seen.deltas.push(d),
      onDone: (d: StreamDone) => (seen.done = d),
      onError: (e: StreamError) => (seen.error = e),
    },
  };
}

describe('streamAnswer', () => {
  it('POSTs the message and offset with the token, and reads events split across writes', async () => {
    writeCookie('api-token', 'tok-9', 60_000);
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: 1\nevent: delta\ndata: {"seq":1,"offset":3,"te');
      setTimeout(() => {
        res.write(
          'xt":"lo "}\n\n: ping\n\nevent: delta\ndata: {"seq":2,"offset":6,"text":"you"}\n\n',
        );
        res.end(
          'event: done\ndata: {"status":"done","usage":{"promptTokens":4,"completionTokens":2,"estimated":false}}\n\n',
        );
      }, 20);
    });
    const { seen, handlers } = collect();
    const end = await streamAnswer(42, 3, handlers, new AbortController().signal);
    expect(end).toBe('ended');
    expect(server.requests[0]?.url).toBe('/api/aigc/chat/stream');
    expect(server.requests[0]?.headers['api-token']).toBe('tok-9');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ messageId: 42, offset: 3 });
    expect(seen.deltas.map((d) => [d.offset, d.text])).toEqual([
      [3, 'lo '],
      [6, 'you'],
    ]);
    expect(seen.done).toEqual({
      status: 'done',
      usage: { promptTokens: 4, completionTokens: 2, estimated: false },
    });
  });

  it('reports a stream cut off before its final event, so the caller re-attaches', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: delta\ndata: {"seq":1,"offset":0,"text":"par"}\n\n');
    });
    const { seen, handlers } = collect();
    expect(await streamAnswer(1, 0, handlers, new AbortController().signal)).toBe('closed');
    expect(seen.deltas).toHaveLength(1);
  });

  it('hands an error event over and ends', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        'event: error\ndata: {"status":"error","msg":"The model provider refused the request (HTTP 503)"}\n\n',
      );
    });
    const { seen, handlers } = collect();
    expect(await streamAnswer(1, 0, handlers, new AbortController().signal)).toBe('ended');
    expect(seen.error?.msg).toMatch(/HTTP 503/);
  });

  it('treats an envelope answer as a refusal and shows its message', async () => {
    server.handle((_req, res) => sendJson(res, { code: -1, msg: 'Message not found', data: null }));
    const { handlers } = collect();
    expect(await streamAnswer(1, 0, handlers, new AbortController().signal)).toBe('refused');
    expect(await screen.findByText('Message not found')).toBeTruthy();
  });
});
