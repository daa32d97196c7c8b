import type { ConversationRecord, MessageRecord } from '@atrium/shared/contract/chat';
import { message, render, type Language, type ParamValue } from '@atrium/shared/messages/catalogue';
import { errorFields, readError, storedError } from '../../http/stored-message';

export { errorFields, readError, storedError, type ErrorFields } from '../../http/stored-message';

/**
 * Texts the chat stores and people read later (issue 27): an answer's error is stored in
 * `chat_messages.error` as a catalogue message, JSON `{"key":…,"params":…}`, and rendered in the
 * reader's language when it is read; a conversation nobody named keeps an empty title, shown as
 * "New chat" in the reader's language. An error stored before keys (an old row no migration
 * could read) is shown as it was stored.
 */

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
