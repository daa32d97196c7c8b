import type { ConversationRecord, MessageRecord } from '@atrium/shared/contract/chat';
import {
  isMessageKey,
  message,
  render,
  type Language,
  type MessageRef,
  type ParamValue,
} from '@atrium/shared/messages/catalogue';

/**
 * Texts the chat stores and people read later (issue 27): an answer's error is stored in
 * `chat_messages.error` as a catalogue message, JSON `{"key":…,"params":…}`, and rendered in the
 * reader's language when it is read; a conversation nobody named keeps an empty title, shown as
 * "New chat" in the reader's language. An error stored before keys (an old row no migration
 * could read) is shown as it was stored.
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

/** A stored error as the text a person reads in `lang` (an export, a shared page). */
export const errorText = (stored: string, lang: Language): string =>
  errorFields(stored, lang).error;

/** A message as `lang` reads it. */
export function messageIn<T extends MessageRecord>(record: T, lang: Language): T {
  return { ...record, ...errorFields(record.error, lang) };
}

/** A conversation's title as `lang` reads it: "New chat" until it is named. */
export const titleIn = (title: string, lang: Language): string =>
  title || render(lang, message('chat.newConversation'));

export function conversationIn<T extends Pick<ConversationRecord, 'title'>>(
  record: T,
  lang: Language,
): T {
  return { ...record, title: titleIn(record.title, lang) };
}

/** A title as an import stores it: the default title in any language is stored empty. */
export function titleToStore(title: string): string {
  const newChat = message('chat.newConversation');
  return title === render('en', newChat) || title === render('zh-CN', newChat) ? '' : title;
}

/** The messages an answer's error can be: an imported file's texts are matched against them. */
const answerErrorKeys = [
  'chat.answerInterrupted',
  'chat.answerLostTouch',
  'chat.answerShutdown',
  'chat.answerLength',
  'chat.answerIdle',
  'chat.answerNoStart',
  'chat.answerExportedStreaming',
  'ai.providerTimeout',
  'ai.providerUnreachable',
  'ai.providerRefused',
  'ai.providerError',
  'ai.providerBrokeOff',
  'ai.callFailed',
] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each text of each answer error as a pattern capturing its parameters. */
const answerErrorPatterns = answerErrorKeys.flatMap((key) =>
  (['en', 'zh-CN'] as const).map((lang) => {
    const text = render(lang, { key });
    const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
    const source = text
      .split(/\{\w+\}/)
      .map(escapeRegExp)
      .join('([\\s\\S]+?)');
    return { key, names, pattern: new RegExp(`^${source}$`) };
  }),
);

/**
 * What `chat_messages.error` holds for an error as an export file carries it: its message when
 * the text is one of an answer's errors in either language (or already a stored message), else
 * the text as it is.
 */
export function errorToStore(text: string): string {
  if (!text || readError(text)) return text;
  for (const { key, names, pattern } of answerErrorPatterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    const params: Record<string, ParamValue> = {};
    names.forEach((name, i) => {
      const value = match[i + 1] ?? '';
      params[name] = /^\d+$/.test(value) ? Number(value) : value;
    });
    return storedError({ key, params });
  }
  return text;
}
