import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void;

export interface LocalServer {
  /** "http://127.0.0.1:<port>/" */
  url: string;
  requests: SeenRequest[];
  /** Replaces how the server answers. */
  handle: (handler: Handler) => void;
  close: () => Promise<void>;
}

/** Answers with a JSON envelope. */
export function sendJson(
  response: ServerResponse,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(200, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify(value));
}

/**
 * A real HTTP server on a free loopback port, standing in for the Atrium server where a test
 * needs to choose the answers (malformed bodies, 404s, slow replies, a changed hash).
 */
export async function startLocalServer(initial: Handler): Promise<LocalServer> {
  let handler = initial;
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      handler(seen, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    handle: (next) => {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
