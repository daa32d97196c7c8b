import {
  isMessageKey,
  render,
  type Language,
  type MessageRef,
  type ParamValue,
} from '@atrium/shared/messages/catalogue';
import { currentLanguage } from './i18n';

/**
 * The server's messages on the page (issue 27): every text the server sends has a key in the
 * shared catalogue (packages/shared/src/messages), and the page renders it from the key and its
 * parameters in the page's language. Nothing here reads the server's words: a text whose key is
 * not known is shown as it came.
 */

function isParam(value: unknown): value is ParamValue {
  if (typeof value === 'string' || typeof value === 'number') return true;
  return isRef(value);
}

function isRef(value: unknown): value is MessageRef {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { key, params } = value as { key?: unknown; params?: unknown };
  return typeof key === 'string' && (params === undefined || isParams(params));
}

function isParams(value: unknown): value is Record<string, ParamValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every(isParam);
}

/**
 * The message a key and parameters that arrived as data stand for, when the key is one of the
 * catalogue's; parameters that are not message parameters are dropped.
 */
export function messageRef(key: unknown, params?: unknown): MessageRef | undefined {
  if (!isMessageKey(key)) return undefined;
  if (params === undefined || params === null) return { key };
  if (typeof params !== 'object' || Array.isArray(params)) return { key };
  const kept = Object.fromEntries(Object.entries(params).filter(([, value]) => isParam(value)));
  return { key, params: kept };
}

/** A catalogue message in the page's language (or `lang`). */
export function messageText(ref: MessageRef, lang: Language = currentLanguage()): string {
  return render(lang, ref);
}

/** The message a failure names in its data (`{error: key, params, field}`), if a known one. */
export function failureRef(data: unknown): MessageRef | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const { error, params } = data as { error?: unknown; params?: unknown };
  return messageRef(error, params);
}

/**
 * A text the server stored and sends back later (an answer's error): from its key and parameters
 * in the page's language when it names a known key, else the text as it was sent.
 */
export function storedText(text: string, key?: unknown, params?: unknown): string {
  const ref = messageRef(key, params) ?? messageRef(text);
  return ref ? messageText(ref) : text;
}
