import { connect } from 'node:net';
import { Agent, request } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { sseSink } from './sse';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const events =
  'id: 1\nevent: delta\ndata: {"seq":1,"offset":0,"text":"Hé"}\n\n: ping\n\n' +
  'event: done\ndata: {"status":"done","usage":{"promptTokens":1,"completionTokens":2,"estimated":false}}\n\n';

/** A server whose one route streams two events and a ping, then ends; answers its port. */
async function streaming(): Promise<number> {
  app = Fastify();
  app.get('/stream', (_request, reply) => {
    const sink = sseSink(reply, 'en');
    sink.delta({ seq: 1, offset: 0, text: 'Hé' });
    sink.ping();
    sink.done({
      status: 'done',
      usage: { promptTokens: 1, completionTokens: 2, estimated: false },
    } as Parameters<typeof sink.done>[0]);
    sink.end();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the SSE sink', () => {
  it('frames each event as a chunk of its own: the body reads whole, and the connection serves the next request', async () => {
    const port = await streaming();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ body: string; socket: unknown; chunked: boolean }>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: '/stream', agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (piece: string) => (body += piece));
          res.on('end', () =>
            resolve({
              body,
              socket: req.socket,
              chunked: res.headers['transfer-encoding'] === 'chunked',
            }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    const first = await get();
    expect(first).toMatchObject({ body: events, chunked: true });
    const second = await get();
    expect(second.body).toBe(events);
    // Kept alive: the second request went over the first one's connection.
    expect(second.socket).toBe(first.socket);
    agent.destroy();
  });

  it('writes an HTTP/1.0 client the events unframed, and closes', async () => {
    const port = await streaming();
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('GET /stream HTTP/1.0\r\nHost: localhost\r\n\r\n'),
      );
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (piece: string) => (text += piece));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const [head, body] = splitOnce(raw);
    expect(head).not.toMatch(/transfer-encoding/i);
    expect(body).toBe(events);
  });
});

function splitOnce(text: string): [string, string] {
  const at = text.indexOf('\r\n\r\n');
  return [text.slice(0, at), text.slice(at + 4)];
}
