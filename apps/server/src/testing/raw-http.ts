import net from 'node:net';
import type { Envelope } from '@atrium/shared';
import type { FastifyInstance } from 'fastify';

/** Starts the app on a free loopback port, for tests about sockets (app.inject has none). */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening on TCP');
  return address.port;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The first HTTP answer in what a raw client received (as latin1 text: one char a byte). */
export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete answer in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = Buffer.from(text.slice(end + 4), 'latin1');
  const length = Number(headers['content-length'] ?? body.length);
  if (body.length < length) throw new Error(`the answer's body is incomplete`);
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: body.subarray(0, length).toString('utf8'),
  };
}

export const envelopeOf = (answer: RawAnswer): Envelope => JSON.parse(answer.body) as Envelope;

/** A client on a bare socket: it sends exactly the bytes it is given, when it is told to. */
export interface RawClient {
  socket: net.Socket;
  write(data: string | Buffer): void;
  /** Everything received so far. */
  received(): string;
  /** Resolves once the server has sent a whole answer (headers and Content-Length bytes). */
  answered(): Promise<RawAnswer>;
  /** Resolves when the connection is closed, with all that was received. */
  closed: Promise<string>;
}

export function rawClient(port: number, first?: string | Buffer): RawClient {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  const waiters: (() => void)[] = [];
  socket.on('data', (data: Buffer) => {
    text += data.toString('latin1');
    for (const wake of waiters.splice(0)) wake();
  });
  // A reset after the answer is one way a server closes; what was received is what counts.
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  if (first !== undefined) socket.write(first);

  const complete = (): RawAnswer | undefined => {
    try {
      return parseAnswer(text);
    } catch {
      return undefined;
    }
  };
  const answered = async (): Promise<RawAnswer> => {
    for (;;) {
      const answer = complete();
      if (answer) return answer;
      if (socket.destroyed) throw new Error(`closed without an answer: ${JSON.stringify(text)}`);
      await Promise.race([new Promise<void>((wake) => waiters.push(wake)), closed]);
    }
  };
  return {
    socket,
    write: (data) => socket.write(data),
    received: () => text,
    answered,
    closed,
  };
}
