import { Code, fail, type Envelope } from '@atrium/shared';
import {
  message,
  render,
  type Language,
  type MessageKey,
  type MessageRef,
} from '@atrium/shared/messages/catalogue';

export { fail, message, type Envelope, type MessageRef };

/**
 * A handled failure: services throw it, the error handler answers HTTP 200 with the envelope
 * `{code, msg, data}`, `msg` rendered in the request's language from the catalogue (issue 27) and
 * `data` carrying `{error: key, params, field}` beside what `data` holds already. Anything else
 * thrown is a crash (HTTP 500).
 */
export class ApiError extends Error {
  constructor(
    readonly ref: MessageRef,
    readonly code: number = Code.Failure,
    readonly data: unknown = null,
  ) {
    super(ref.key);
    this.name = 'ApiError';
  }
}

/** The message an envelope was made with, rendered when it is sent (see localize). */
const messageOf = Symbol('message');
type Carrying = Envelope & { [messageOf]?: MessageRef };

function carrying<T>(envelope: Envelope<T>, ref: MessageRef): Envelope<T> {
  Object.defineProperty(envelope, messageOf, { value: ref, enumerable: false });
  return envelope;
}

/** A success whose `msg` is a catalogue message ("Save Success"). */
export function okSaying<T>(data: T, ref: MessageRef): Envelope<T> {
  return carrying({ code: Code.Success, msg: ref.key, data }, ref);
}

/** A refusal from the catalogue. */
export function refusal(
  ref: MessageRef,
  code: number = Code.Failure,
  data: unknown = null,
): Envelope {
  return carrying(fail(ref.key, code, data), ref);
}

/** What a failure's `data` says of its message, beside what it carries already. */
function failureData(data: unknown, ref: MessageRef): unknown {
  const own = {
    error: ref.key,
    params: ref.params ?? {},
    ...(ref.field === undefined ? {} : { field: ref.field }),
  };
  if (data === null || data === undefined) return own;
  if (typeof data !== 'object' || Array.isArray(data)) return data;
  // A refusal whose data names its own message (an outage) keeps it.
  return 'error' in data ? data : { ...own, ...data };
}

/**
 * Renders an envelope made with a catalogue message in `lang`: every answer passes here before
 * it is serialised (the preSerialization hook), so `msg` is in the request's language for every
 * client, and failures carry the key.
 */
export function localize(payload: unknown, lang: Language): unknown {
  if (payload === null || typeof payload !== 'object') return payload;
  const ref = (payload as Carrying)[messageOf];
  if (!ref) return payload;
  const envelope = payload as Envelope;
  return {
    code: envelope.code,
    msg: render(lang, ref),
    data: envelope.code === Code.Success ? envelope.data : failureData(envelope.data, ref),
  };
}

export const notLoggedIn = (): Envelope => refusal(message('http.notLoggedIn'), Code.NotLoggedIn);
export const noPermission = (): Envelope =>
  refusal(message('http.noPermission'), Code.NoPermission);

/** For code that names a key it holds as data (a stored message key). */
export const refOf = (key: MessageKey, params?: MessageRef['params']): MessageRef =>
  params ? { key, params } : { key };
