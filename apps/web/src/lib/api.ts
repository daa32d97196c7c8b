import { Code, type Envelope } from '@atrium/shared/codes';
import { Limits, XsrfCookie } from '@atrium/shared/limits';
import { useApiStore } from '@/stores/api-store';
import { readCookie } from './cookies';
import { toast } from './feedback';
import { t } from './i18n';
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

export class ApiError extends Error {
  readonly result: Envelope;
  constructor(result: Envelope) {
    super(result.msg);
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

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return 'code' in value && typeof value.code === 'number';
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

async function send(
  path: string,
  body: unknown,
  options: RequestOptions,
): Promise<{ result: Envelope; cancelled: boolean }> {
  const { baseUrl, tokenKey, setToken } = useApiStore.getState();
  const token = readCookie(tokenKey);
  const xsrf = readCookie(XsrfCookie);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'is-ajax': 'true',
  };
  if (token) headers[tokenKey] = token;
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;

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
    const fresh = response.headers.get(tokenKey);
    if (fresh !== null) setToken(fresh);
    if (response.status === 404) {
      return { result: failure(t('api.notFound')), cancelled: false };
    }
    if (response.status < 200 || response.status > 299) {
      const status = `${response.status} ${response.statusText}`.trim();
      return {
        result: failure(t('api.failedNetwork', { error: t('api.httpStatus', { status }) })),
        cancelled: false,
      };
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isEnvelope(parsed)) {
      const shown = text.length > shownResponseChars ? `${text.slice(0, shownResponseChars)}…` : text;
      return { result: failure(t('api.failedResponse', { response: shown })), cancelled: false };
    }
    return {
      result: { code: parsed.code, msg: typeof parsed.msg === 'string' ? parsed.msg : '', data: parsed.data },
      cancelled: false,
    };
  } catch (error) {
    const cancelled = !timedOut && options.signal?.aborted === true;
    const reason = timedOut ? t('api.timeout', { seconds: Math.round(timeoutMs / 1000) }) : errorText(error);
    return { result: failure(t('api.failedNetwork', { error: reason })), cancelled };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
  }
}

/**
 * Calls the API and resolves with the envelope; it never rejects. Success shows msg for 5 s;
 * a failure goes to the code processor for its code, else to `onFailure`, else to an error toast.
 */
export async function request<T = unknown>(
  path: string,
  body: unknown = {},
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  const { result, cancelled } = await send(path, body, options);
  if (cancelled) return result as Envelope<T>;
  if (result.code === Code.Success) {
    if (options.successToast !== false && result.msg) toast.success(result.msg, resultToastSeconds);
    return result as Envelope<T>;
  }
  const processor = useApiStore.getState().codeProcessors.find((p) => p.code === result.code);
  if (processor) {
    processor.callback(result);
  } else if (options.onFailure?.(result) !== true && options.errorToast !== false && result.msg) {
    toast.error(result.msg, resultToastSeconds);
  }
  return result as Envelope<T>;
}

/** For query and mutation functions: resolves with `data` on code 0, rejects with ApiError. */
export async function fetchData<T>(
  path: string,
  body: unknown = {},
  options: RequestOptions = {},
): Promise<T> {
  const result = await request<T>(path, body, options);
  if (result.code !== Code.Success) throw new ApiError(result);
  return result.data;
}
