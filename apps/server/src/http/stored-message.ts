import {
  isMessageKey,
  render,
  type Language,
  type MessageRef,
  type ParamValue,
} from '@atrium/shared/messages/catalogue';

/**
 * A catalogue message kept in the database for people to read later (issue 27): stored as JSON
 * `{"key":…,"params":…}` and rendered in the reader's language when read. A text stored before
 * keys (an old row no migration could read) is shown as it was stored.
 */

/** `ref` without U+0000 in its texts (a provider's words may hold it; PostgreSQL text cannot). */
function withoutNul(ref: MessageRef): MessageRef {
  if (!ref.params) return ref;
  const params: Record<string, ParamValue> = {};
  for (const [name, value] of Object.entries(ref.params))
    params[name] =
      typeof value === 'string'
        ? value.replace(/\0/g, '')
        : typeof value === 'object'
          ? withoutNul(value)
          : value;
  return { ...ref, params };
}

/** What `chat_messages.error` holds for `ref`. */
export function storedError(ref: MessageRef): string {
  const params = withoutNul(ref).params ?? {};
  return JSON.stringify(
    Object.keys(params).length > 0 ? { key: ref.key, params } : { key: ref.key },
  );
}

function isParam(value: unknown): value is ParamValue {
  if (typeof value === 'string' || typeof value === 'number') return true;
  return typeof value === 'object' && value !== null && isMessageKey((value as MessageRef).key);
}

/** The message a stored error names, if it names one. */
export function readError(stored: string): MessageRef | undefined {
  if (!stored.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(stored) as { key?: unknown; params?: unknown };
    if (!isMessageKey(value.key)) return undefined;
    const params =
      typeof value.params === 'object' && value.params !== null
        ? Object.fromEntries(Object.entries(value.params).filter(([, v]) => isParam(v)))
        : {};
    return Object.keys(params).length > 0 ? { key: value.key, params } : { key: value.key };
  } catch {
    return undefined;
  }
}

/**
 * How an answer's error reaches a client: `error` rendered in `lang` (for clients that show it
 * as it comes), and `errorKey` with `errorParams` for clients that render it themselves.
 */
export interface ErrorFields {
  error: string;
  errorKey?: string;
  errorParams?: Record<string, ParamValue>;
}

export function errorFields(stored: string, lang: Language): ErrorFields {
  if (!stored) return { error: '' };
  const ref = readError(stored);
  if (!ref) return { error: stored };
  return { error: render(lang, ref), errorKey: ref.key, errorParams: ref.params ?? {} };
}
