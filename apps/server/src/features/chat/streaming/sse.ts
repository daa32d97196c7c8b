import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { StreamEvent } from '@atrium/shared/contract/chat';
import type { Language } from '@atrium/shared/messages/catalogue';
import { errorFields } from '../chat-texts';
import type { StreamEnd, StreamSink } from './stream';

/**
 * An `error` event: `msg` in the client's language, and the message's `errorKey` and
 * `errorParams` for clients that render it themselves (absent for an error stored before keys).
 */
function errorEvent(end: StreamEnd, lang: Language) {
  const { error, errorKey, errorParams } = errorFields(end.error, lang);
  return errorKey === undefined
    ? { status: end.status, msg: error }
    : { status: end.status, msg: error, errorKey, errorParams };
}

/**
 * Turns a reply into a Server-Sent Events stream. The reply is hijacked (Fastify sends nothing
 * more), so the headers Fastify's hooks already set (security headers, request id, a rotated
 * token) are copied onto the raw response first.
 */
export function sseSink(reply: FastifyReply, lang: Language): StreamSink {
  reply.hijack();
  const raw = reply.raw;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // Proxies such as nginx would otherwise buffer the stream.
    'x-accel-buffering': 'no',
  });
  raw.socket?.setNoDelay(true);
  // Node holds written headers back until the first body byte, which for an answer waiting on
  // its next token (or on its dead writer being noticed) could be a keep-alive 15 s away: the
  // client learns at once that it is attached.
  raw.flushHeaders();

  const cleanups: (() => void)[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
  raw.on('close', close);

  /** Writes one event as the call declares it (`streamEvents`; checked in chat.testing.ts). */
  const send = ({ event, data }: StreamEvent, id?: number) => {
    if (closed || raw.writableEnded) return;
    raw.write(
      `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
    );
  };

  return {
    delta: (delta) => send({ event: 'delta', data: delta }, delta.seq),
    done: (done) => send({ event: 'done', data: done }),
    error: (end) => send({ event: 'error', data: errorEvent(end, lang) }),
    ping: () => {
      if (!closed && !raw.writableEnded) raw.write(': ping\n\n');
    },
    end: () => {
      if (!raw.writableEnded) raw.end();
      close();
    },
    onClose: (cleanup) => {
      if (closed) cleanup();
      else cleanups.push(cleanup);
    },
  };
}
