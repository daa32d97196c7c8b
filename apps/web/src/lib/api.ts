import type { AreaName } from '@atrium/shared/areas';
import { Code, type Envelope } from '@atrium/shared/codes';
import { outageOfEnvelope, type Outage } from '@atrium/shared/outage';
import type { AnswerOf, RequestOf } from '@atrium/shared/contract/call';
import type { AdminTable, MemberTable } from '@atrium/shared/contract/table';
import { Limits, TokenKey, XsrfCookie } from '@atrium/shared/limits';
import { languageHeader } from '@atrium/shared/messages/catalogue';
import { useApiStore } from '@/stores/api-store';
import { readCookie } from './cookies';
import { toast } from './feedback';
import { currentLanguage, t } from './i18n';
import { failureRef, messageText } from './messages';
import { apiUrl, type Query } from './urls';

/**
 * The API client (SPEC 7.1, 8.1). Every call is a JSON POST to {baseUrl}api/{path}; the answer is
 * always an envelope: transport problems become code -1 with the SPEC's "Request failed..." texts.
 */
export interface RequestOptions {
  /**
   * Runs when the call fails and no code processor took the code. Return true when you have told
   * the user yourself; otherwise an error toast shows msg.
   */
  onFailure?: (result: Envelope) => boolean | void;
  /** Show a success toast with msg, when there is one (default true). */
  successToast?: boolean;
  /** Show the error toast when nothing else handled the failure (default true). */
  errorToast?: boolean;
  query?: Query;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What the person reads when a call was refused because infrastructure is out (code 1005). */
export function outageText(outage: Outage): string {
  return messageText({ key: `unavailable.${outage}` });
}

/**
 * The text of a failed call in the page's language (issue 27): rendered from the catalogue key
 * and parameters its data names (`{error, params}`); an outage refusal (code 1005) that names no
 * key, from the outage; anything else (a client's own "Request failed..." texts, an unknown key)
 * as `msg` came.
 */
export function failureText(result: Pick<Envelope, 'code' | 'msg' | 'data'>): string {
  const ref = failureRef(result.data);
  if (ref) return messageText(ref);
  const outage = outageOfEnvelope(result);
  return outage ? outageText(outage) : result.msg;
}

export class ApiError extends Error {
  readonly result: Envelope;
  constructor(result: Envelope) {
    super(failureText(result));
    this.name = 'ApiError';
    this.result = result;
  }
  get code(): number {
    return this.result.code;
  }
}

const resultToastSeconds = Limits.resultToastMs / 1000;
const shownResponseChars = 300;

function failure(msg: string): Envelope<null> {
  return { code: Code.Failure, msg, data: null };
}

/** Code -1 with the SPEC 8.1 text for a call that got no usable answer. */
export function transportFailure(reason: string): Envelope<null> {
  return failure(t('api.failedNetwork', { error: reason }));
}

/** The reason shown for a call cut off after `timeoutMs`. */
export function timeoutReason(timeoutMs: number): string {
  return t('api.timeout', { seconds: Math.round(timeoutMs / 1000) });
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return 'code' in value && typeof value.code === 'number';
}

/**
 * Why a call got no answer. fetch fails with a TypeError in the browser's own words ("Failed to
 * fetch", in English whatever the page speaks): that one is said in the page's language.
 */
function errorText(error: unknown): string {
  if (error instanceof TypeError) return t('api.networkError');
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * The headers every call sends (SPEC 7.1): is-ajax, the area's token, the XSRF echo, and the
 * page's language (issue 27), in which the server writes `msg`.
 */
export function callHeaders(): Record<string, string> {
  const { tokenKey } = useApiStore.getState();
  const headers: Record<string, string> = {
    'is-ajax': 'true',
    [languageHeader]: currentLanguage(),
  };
  const token = readCookie(tokenKey);
  if (token) headers[tokenKey] = token;
  const xsrf = readCookie(XsrfCookie);
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  return headers;
}

/** How an HTTP exchange ended: an envelope came back, or the server or the network failed. */
export type AnswerKind = 'answered' | 'server' | 'network';

/**
 * The envelope an HTTP answer stands for (SPEC 8.1), with a renewed token taken from its
 * header: 404, another non-2xx status and a body that is no envelope each become code -1. A
 * refusal's `msg` is its text in the page's language (`failureText`: from the key its data
 * names), so whoever shows it (a toast, the upload button, a form) shows the catalogue's words.
 */
export function readAnswer(answer: {
  status: number;
  statusText: string;
  text: string;
  header: (name: string) => string | null;
}): { result: Envelope; kind: AnswerKind } {
  const { tokenKey, setToken } = useApiStore.getState();
  const fresh = answer.header(tokenKey);
  if (fresh !== null) setToken(fresh);
  if (answer.status === 404) return { result: failure(t('api.notFound')), kind: 'server' };
  if (answer.status < 200 || answer.status > 299) {
    const status = `${answer.status} ${answer.statusText}`.trim();
    return {
      result: transportFailure(t('api.httpStatus', { status })),
      kind: answer.status >= 500 ? 'server' : 'network',
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    parsed = undefined;
  }
  if (!isEnvelope(parsed)) {
    const { text } = answer;
    const shown = text.length > shownResponseChars ? `${text.slice(0, shownResponseChars)}…` : text;
    return { result: failure(t('api.failedResponse', { response: shown })), kind: 'server' };
  }
  const result: Envelope = {
    code: parsed.code,
    msg: typeof parsed.msg === 'string' ? parsed.msg : '',
    data: parsed.data,
  };
  if (result.code !== Code.Success) result.msg = failureText(result);
  return { result, kind: 'answered' };
}

/**
 * Tells the user how a finished call went (SPEC 8.1): msg of a success for 5 s when asked; a
 * failure goes to the code processor for its code, else to `onFailure`, else to an error toast.
 */
export function announce(
  result: Envelope,
  options: {
    successToast: boolean;
    errorToast: boolean;
    onFailure?: (result: Envelope) => boolean | void;
  },
): void {
  if (result.code === Code.Success) {
    // The server wrote it in the language the call named (callHeaders).
    if (options.successToast && result.msg) toast.success(result.msg, resultToastSeconds);
    return;
  }
  const processor = useApiStore.getState().codeProcessors.find((p) => p.code === result.code);
  if (processor) processor.callback(result);
  else if (options.onFailure?.(result) !== true && options.errorToast && result.msg) {
    toast.error(failureText(result), resultToastSeconds);
  }
}

async function send(
  path: string,
  body: unknown,
  options: RequestOptions,
): Promise<{ result: Envelope; cancelled: boolean }> {
  const { baseUrl } = useApiStore.getState();
  const headers = { ...callHeaders(), 'Content-Type': 'application/json' };
  const timeoutMs = options.timeoutMs ?? Limits.apiTimeoutMs;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort();
  options.signal?.addEventListener('abort', forwardAbort);

  try {
    const response = await fetch(apiUrl(path, options.query, baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify(body ?? {}),
      credentials: 'same-origin',
      signal: controller.signal,
    });
    const text = response.status === 404 ? '' : await response.text();
    const { result } = readAnswer({
      status: response.status,
      statusText: response.statusText,
      text,
      header: (name) => response.headers.get(name),
    });
    return { result, cancelled: false };
  } catch (error) {
    const cancelled = !timedOut && options.signal?.aborted === true;
    return {
      result: transportFailure(timedOut ? timeoutReason(timeoutMs) : errorText(error)),
      cancelled,
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
  }
}

/** The area of the running app, for calls both areas serve (sign-in, `app/config`, captcha). */
export function runningArea(): AreaName {
  return useApiStore.getState().tokenKey === TokenKey.admin ? 'admin' : 'member';
}

/** The calls of an area's table (packages/shared/src/contract/table.ts). */
type TableOf<A extends AreaName> = A extends 'admin' ? AdminTable : MemberTable;

/** A call's path in its area's table; for both areas at once, a path both tables hold. */
export type CallPath<A extends AreaName> = keyof TableOf<A> & string;
export type CallRequest<A extends AreaName, P extends CallPath<A>> = RequestOf<TableOf<A>[P]>;
export type CallAnswer<A extends AreaName, P extends CallPath<A>> = AnswerOf<TableOf<A>[P]>;

/**
 * Calls the API and resolves with the envelope; it never rejects. Success shows msg for 5 s;
 * a failure goes to the code processor for its code, else to `onFailure`, else to an error toast.
 * The call is named by its area and its path in that area's table, which give the body's and the
 * answer's types; the request goes to the running app's API root (SPEC 7.1).
 */
export async function request<A extends AreaName, P extends CallPath<A>>(
  _area: A,
  path: P,
  body: CallRequest<A, P>,
  options: RequestOptions = {},
): Promise<Envelope<CallAnswer<A, P>>> {
  const { result, cancelled } = await send(path, body, options);
  if (!cancelled) {
    announce(result, {
      successToast: options.successToast !== false,
      errorToast: options.errorToast !== false,
      onFailure: options.onFailure,
    });
  }
  // A success carries the declared answer: the server's tests parse every one against it.
  return result as Envelope<CallAnswer<A, P>>;
}

/** For query and mutation functions: resolves with `data` on code 0, rejects with ApiError. */
export async function fetchData<A extends AreaName, P extends CallPath<A>>(
  area: A,
  path: P,
  body: CallRequest<A, P>,
  options: RequestOptions = {},
): Promise<CallAnswer<A, P>> {
  const result = await request(area, path, body, options);
  if (result.code !== Code.Success) throw new ApiError(result);
  return result.data;
}
