import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { defaultLanguage, type MessageKey } from '@atrium/shared/messages/catalogue';
import type {
  ConnectionError,
  FastifyError,
  FastifyHttpOptions,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { refusal } from './envelope';
import { answerStarted, rawAnswer } from './raw-answer';

/**
 * How long a client may keep the server waiting and how much it may make it hold (DESIGN 9: one
 * stalled body kept a connection for minutes; 200 stalled anonymous bodies held 170 MB). Kept
 * together so each number can be read against the others.
 */
export interface ServerLimits {
  /**
   * Every header of a request within this long of its first byte. A browser sends them in one
   * packet; Node's own 60 s let a client that never finishes its headers keep a socket a minute.
   */
  headersTimeoutMs: number;
  /**
   * The whole request, body included, within this long: the end for a body trickled a byte at a
   * time, which the idle cut never sees stall. Generous on purpose, since stalls are the idle
   * cut's job: a 5 MiB upload chunk still fits on a 150 kbit/s uplink.
   */
  requestTimeoutMs: number;
  /**
   * A body that receives no byte for this long is cut: answered 408 and its connection closed
   * (`inflight.ts`). Long enough for a phone's uplink to come back from a short drop.
   */
  bodyIdleMs: number;
  /**
   * A socket with no traffic in either direction for this long is closed: it ends a client that
   * stops reading its answer. Chat streams ping every 15 s and no call works silently this long.
   */
  connectionTimeoutMs: number;
  /**
   * How long an idle keep-alive connection waits for its next request. Above the 60 s idle
   * time of common load balancers, so they close first and never send into a socket we close.
   */
  keepAliveTimeoutMs: number;
  /** How often Node looks for requests past the header and request time-outs. */
  timeoutCheckMs: number;
  /**
   * Bodies being received at once from one client address (an IPv6 /64). Each may hold up to an
   * upload chunk in memory; our upload button sends three chunks at once, so a person with a few
   * tabs uploading never meets this bound while a flood of stalled bodies does.
   */
  bodiesPerAddress: number;
  /**
   * Bodies that declare at most `smallBodyBytes` (every JSON call of the pages) have a budget of
   * their own: together they hold little memory, a page fires several at once, and an office
   * behind one address shares it; they must not queue behind, or crowd out, the large ones.
   */
  smallBodiesPerAddress: number;
  smallBodyBytes: number;
  /**
   * The largest JSON body of a call anyone may make without signing in (sign-in, registration,
   * captcha, app config) and of an unknown URL. Their forms are a few hundred bytes; signed-in
   * calls get `Limits.jsonBodyLimitBytes`.
   */
  anonymousBodyLimitBytes: number;
}

export const defaultServerLimits: ServerLimits = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 300_000,
  bodyIdleMs: 15_000,
  connectionTimeoutMs: 120_000,
  keepAliveTimeoutMs: 72_000,
  timeoutCheckMs: 1_000,
  bodiesPerAddress: 8,
  smallBodiesPerAddress: 64,
  smallBodyBytes: 64 * 1024,
  anonymousBodyLimitBytes: 32 * 1024,
};

const clientErrorAnswers: Record<string, { status: number; key: MessageKey }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, key: 'http.requestTimeout' },
  HPE_HEADER_OVERFLOW: { status: 431, key: 'http.headersTooLong' },
};
const malformed: { status: number; key: MessageKey } = { status: 400, key: 'http.malformed' };

/**
 * Requests Node's HTTP parser refuses (malformed, headers too long, too slow to arrive) never
 * reach Fastify: they are answered here with the envelope and the security headers instead of
 * Fastify's bare JSON, unless an answer already began on the socket.
 */
function answerClientError(securityHeaders: Readonly<Record<string, string>>) {
  return (error: ConnectionError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, key } = clientErrorAnswers[error.code] ?? malformed;
    if (socket.writable && !answerStarted(socket)) {
      // No request was read: the site's language is not known here, the product's default is.
      socket.write(rawAnswer(status, refusal({ key }), securityHeaders, defaultLanguage));
    }
    socket.destroy(error);
  };
}

type RouterErrorAnswer = (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => void;

/**
 * The time-outs and body limit of `limits` as Fastify options, with the parser's refusals and
 * the router's (`answer`: a URL it cannot read) carrying the security headers: both are answered
 * before any hook runs, so the onRequest hook that adds them to every other answer never sees
 * them.
 */
export function serverOptions(
  limits: ServerLimits,
  securityHeaders: Readonly<Record<string, string>>,
  answer: RouterErrorAnswer,
) {
  return {
    bodyLimit: limits.anonymousBodyLimitBytes,
    connectionTimeout: limits.connectionTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckMs,
    },
    clientErrorHandler: answerClientError(securityHeaders),
    frameworkErrors: (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      reply.headers(securityHeaders).header('x-request-id', req.id);
      answer(error, req, reply);
    },
  } satisfies FastifyHttpOptions<Server>;
}
