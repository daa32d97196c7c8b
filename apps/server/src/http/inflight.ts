import { addressKey } from './client-address';
import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Code } from '@atrium/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { message, refusal } from './envelope';
import { rawAnswer } from './raw-answer';
import type { ServerLimits } from './server-limits';

/** Why a body was cut; the error handler answers it like any refused request (4xx). */
class BodyStalledError extends Error {
  readonly code = 'ATRIUM_BODY_STALLED';
  readonly statusCode = 408;

  constructor(idleMs: number) {
    super(`The request body stopped arriving (no byte for ${Math.round(idleMs / 1000)} s)`);
    this.name = 'BodyStalledError';
  }
}

function expectsBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** A request whose body is still arriving. */
interface Arriving {
  req: FastifyRequest;
  reply: FastifyReply;
  socket: Socket;
  /** Counted against this address's bound; undefined when it was refused instead. */
  address: string | undefined;
  bytesRead: number;
  lastProgress: number;
  done: () => void;
}

export interface InflightOptions {
  limits: Pick<
    ServerLimits,
    'bodyIdleMs' | 'bodiesPerAddress' | 'smallBodiesPerAddress' | 'smallBodyBytes'
  >;
  securityHeaders: Readonly<Record<string, string>>;
}

/**
 * A body still arriving holds a socket and whatever of it arrived (an upload chunk is read into
 * one buffer) for as long as its client cares to take. Two bounds keep a few clients from
 * holding the server (DESIGN 9): at most `bodiesPerAddress` bodies arrive at once from one
 * address, the next is refused before a byte of it is read; and a body that receives nothing
 * for `bodyIdleMs` is cut, whoever is reading it (the JSON parser or the upload chunk reader).
 *
 * The count is this process's: it bounds this process's memory, so it lives in memory. Bodies
 * of `app.inject()` come from no socket and hold nothing the network could stall.
 */
export function registerInflightBodies(app: FastifyInstance, options: InflightOptions): void {
  const { bodyIdleMs, bodiesPerAddress, smallBodiesPerAddress, smallBodyBytes } = options.limits;
  const arriving = new Set<Arriving>();
  const perAddress = new Map<string, number>();

  const release = (entry: Arriving) => {
    if (!arriving.delete(entry)) return;
    entry.req.raw.off('end', entry.done);
    entry.socket.off('close', entry.done);
    if (entry.address === undefined) return;
    const left = (perAddress.get(entry.address) ?? 1) - 1;
    if (left > 0) perAddress.set(entry.address, left);
    else perAddress.delete(entry.address);
  };

  const cut = (entry: Arriving) => {
    const { req, reply, socket } = entry;
    release(entry);
    req.log.info({ idleMs: bodyIdleMs }, 'request body stalled; connection closed');
    // An answer already sent (the body was refused unread and is being drained) must not be
    // followed by another on the same connection.
    if (!reply.raw.headersSent && socket.writable) {
      socket.write(
        rawAnswer(408, refusal(message('http.bodyStalled')), options.securityHeaders, req.lang),
      );
    }
    req.raw.destroy(new BodyStalledError(bodyIdleMs));
  };

  // Progress is read from the socket's byte count, which moves however the body is consumed.
  // Bytes waiting unread in the request mean the server, not the client, is behind.
  const watch = setInterval(
    () => {
      const now = performance.now();
      for (const entry of arriving) {
        const { req, socket } = entry;
        if (req.raw.complete || socket.destroyed) {
          release(entry);
        } else if (socket.bytesRead !== entry.bytesRead || req.raw.readableLength > 0) {
          entry.bytesRead = socket.bytesRead;
          entry.lastProgress = now;
        } else if (now - entry.lastProgress >= bodyIdleMs) {
          cut(entry);
        }
      }
    },
    Math.max(10, Math.floor(bodyIdleMs / 5)),
  );
  watch.unref();
  app.addHook('onClose', async () => clearInterval(watch));

  app.addHook('onRequest', async (req, reply) => {
    const raw = req.raw;
    const socket = raw.socket;
    if (!(socket instanceof Socket) || !expectsBody(raw) || raw.complete) return;
    // The parser is still inside the packet that carried the headers; a small body in the same
    // packet is complete once it has finished with it, and such a body holds nothing.
    await nextTurn();
    if (raw.complete || socket.destroyed) return;

    const entry: Arriving = {
      req,
      reply,
      socket,
      address: undefined,
      bytesRead: socket.bytesRead,
      lastProgress: performance.now(),
      done: () => release(entry),
    };
    arriving.add(entry);
    raw.once('end', entry.done);
    socket.once('close', entry.done);

    const declared = Number(raw.headers['content-length']);
    const small = Number.isFinite(declared) && declared <= smallBodyBytes;
    // Small and large bodies are counted apart (two keys of one map), each against its budget.
    const address = `${addressKey(req.ip)}${small ? ' small' : ''}`;
    const limit = small ? smallBodiesPerAddress : bodiesPerAddress;
    const count = perAddress.get(address) ?? 0;
    if (count >= limit) {
      req.log.info({ address, limit }, 'too many bodies in flight from one address');
      // The body stays unread, and the connection closes after the answer rather than reading
      // it to reach the next request.
      return reply
        .code(req.method === 'POST' ? 200 : 429)
        .header('connection', 'close')
        .send(refusal(message('limits.tooManyInProgress'), Code.TooManyRequests));
    }
    entry.address = address;
    perAddress.set(address, count + 1);
  });
}
