import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Envelope } from '@atrium/shared';
import type { Language } from '@atrium/shared/messages/catalogue';
import { localize } from './envelope';

/**
 * An answer written straight to the socket, for the moments no Fastify reply exists (a request
 * Node's parser refused) or none can be trusted to finish (a body that stopped arriving): the
 * envelope with the security headers like every other answer, then the connection closes.
 */
export function rawAnswer(
  status: number,
  envelope: Envelope,
  securityHeaders: Readonly<Record<string, string>>,
  lang: Language,
): string {
  const body = JSON.stringify(localize(envelope, lang));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    ...Object.entries(securityHeaders).map(([name, value]) => `${name}: ${value}`),
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Whether an answer has begun on this socket: a second one written after it would corrupt the
 * stream the client reads. Node keeps the response in flight on the socket as `_httpMessage`.
 */
export function answerStarted(socket: Socket): boolean {
  const message: unknown = Reflect.get(socket, '_httpMessage');
  return (
    typeof message === 'object' && message !== null && Reflect.get(message, 'headersSent') === true
  );
}
