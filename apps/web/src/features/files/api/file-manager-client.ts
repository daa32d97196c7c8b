import { Code, type Envelope } from '@atrium/shared/codes';
import { Limits, XsrfCookie } from '@atrium/shared/limits';
import { readCookie } from '@/lib/cookies';
import { toast } from '@/lib/feedback';
import { t } from '@/lib/i18n';
import type { CallResult } from '@/components/upload-button/upload-engine';
import { useApiStore } from '@/stores/api-store';

/**
 * Calls of the file library at `{url}/{category}` (SPEC 7.2, 7.3). They live outside `api/`, where
 * the shared client posts, and chunks are multipart with upload progress: so this sends through
 * XMLHttpRequest while keeping the shared client's rules (SPEC 7.1, 8.1): is-ajax, token header
 * and its renewal, XSRF echo, 60 s time-out, the "Request failed..." texts, code processors and
 * 5 s result toasts.
 */
export interface FileManagerOptions {
  /** Show msg of a successful answer (default false: the library shows its own notices). */
  successToast?: boolean;
  /** Show msg of a failed answer nobody else handled (default true). */
  errorToast?: boolean;
  signal?: AbortSignal;
  onUploadProgress?: (loaded: number) => void;
  timeoutMs?: number;
}

/** How the call ended, beyond the envelope: the upload button treats each differently (SPEC 8.2). */
export type CallOutcome = 'answered' | 'network' | 'server' | 'cancelled';

export interface FileManagerAnswer<T> {
  result: Envelope<T>;
  outcome: CallOutcome;
}

export class FileManagerError extends Error {
  constructor(readonly result: Envelope) {
    super(result.msg);
    this.name = 'FileManagerError';
  }
}

const resultToastSeconds = Limits.resultToastMs / 1000;
const shownResponseChars = 300;

export function fileManagerAddress(url: string, category: string): string {
  return `${url.replace(/\/+$/, '')}/${encodeURIComponent(category)}`;
}

function failed(msg: string): Envelope<null> {
  return { code: Code.Failure, msg, data: null };
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { code?: unknown }).code === 'number'
  );
}

function sendOnce<T>(
  address: string,
  body: FormData | object,
  options: FileManagerOptions,
): Promise<FileManagerAnswer<T>> {
  return new Promise((resolve) => {
    const { tokenKey, setToken } = useApiStore.getState();
    const xhr = new XMLHttpRequest();
    const timeoutMs = options.timeoutMs ?? Limits.apiTimeoutMs;
    const done = (result: Envelope, outcome: CallOutcome) => {
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ result: result as Envelope<T>, outcome });
    };
    const onAbort = () => xhr.abort();

    xhr.open('POST', address);
    xhr.timeout = timeoutMs;
    xhr.setRequestHeader('is-ajax', 'true');
    const token = readCookie(tokenKey);
    if (token) xhr.setRequestHeader(tokenKey, token);
    const xsrf = readCookie(XsrfCookie);
    if (xsrf) xhr.setRequestHeader('X-XSRF-TOKEN', xsrf);
    if (options.onUploadProgress) {
      const report = options.onUploadProgress;
      xhr.upload.onprogress = (event) => report(event.loaded);
    }
    xhr.onload = () => {
      const fresh = xhr.getResponseHeader(tokenKey);
      if (fresh !== null) setToken(fresh);
      if (xhr.status === 404) return done(failed(t('api.notFound')), 'server');
      if (xhr.status < 200 || xhr.status > 299) {
        const status = `${xhr.status} ${xhr.statusText}`.trim();
        return done(
          failed(t('api.failedNetwork', { error: t('api.httpStatus', { status }) })),
          xhr.status >= 500 ? 'server' : 'network',
        );
      }
      const text = xhr.responseText;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!isEnvelope(parsed)) {
        const shown =
          text.length > shownResponseChars ? `${text.slice(0, shownResponseChars)}…` : text;
        return done(failed(t('api.failedResponse', { response: shown })), 'server');
      }
      done(
        {
          code: parsed.code,
          msg: typeof parsed.msg === 'string' ? parsed.msg : '',
          data: parsed.data,
        },
        'answered',
      );
    };
    xhr.onerror = () => done(failed(t('api.failedNetwork', { error: 'network error' })), 'network');
    xhr.ontimeout = () =>
      done(
        failed(
          t('api.failedNetwork', {
            error: t('api.timeout', { seconds: Math.round(timeoutMs / 1000) }),
          }),
        ),
        'network',
      );
    xhr.onabort = () => done(failed(t('api.failedNetwork', { error: 'aborted' })), 'cancelled');

    if (options.signal?.aborted)
      return done(failed(t('api.failedNetwork', { error: 'aborted' })), 'cancelled');
    options.signal?.addEventListener('abort', onAbort);
    if (body instanceof FormData) {
      xhr.send(body);
    } else {
      xhr.setRequestHeader('Content-Type', 'application/json');
      xhr.send(JSON.stringify(body));
    }
  });
}

/** Posts to `{url}/{category}` and resolves with the envelope and how the call ended; never rejects. */
export async function callFileManager<T>(
  url: string,
  category: string,
  body: FormData | object,
  options: FileManagerOptions = {},
): Promise<FileManagerAnswer<T>> {
  const answer = await sendOnce<T>(fileManagerAddress(url, category), body, options);
  const { result, outcome } = answer;
  if (outcome === 'cancelled') return answer;
  if (result.code === Code.Success) {
    if (options.successToast === true && result.msg) toast.success(result.msg, resultToastSeconds);
    return answer;
  }
  const processor = useApiStore.getState().codeProcessors.find((p) => p.code === result.code);
  if (processor) processor.callback(result);
  else if (options.errorToast !== false && result.msg) toast.error(result.msg, resultToastSeconds);
  return answer;
}

/** For query and mutation functions: `data` on code 0, otherwise a rejection carrying the envelope. */
export async function fileManagerData<T>(
  url: string,
  category: string,
  body: object,
  options: FileManagerOptions = {},
): Promise<T> {
  const { result } = await callFileManager<T>(url, category, body, options);
  if (result.code !== Code.Success) throw new FileManagerError(result);
  return result.data;
}

/** Query keys of one library at one address, so a change can refresh exactly what it touched. */
export const fileKeys = {
  categories: (url: string, category: string) => ['files', url, category, 'categories'] as const,
  lists: (url: string, category: string) => ['files', url, category, 'list'] as const,
  list: (url: string, category: string, categoryId: number, page: number) =>
    ['files', url, category, 'list', categoryId, page] as const,
  uploadConfig: (url: string) => ['files', url, 'upload-config'] as const,
};

/** The upload engine's view of an answer: data, or why not (refused, server failure, network). */
export function toCallResult<T>({ result, outcome }: FileManagerAnswer<T>): CallResult<T> {
  if (outcome === 'answered' && result.code === Code.Success)
    return { ok: true, data: result.data };
  if (outcome === 'answered') return { ok: false, kind: 'code', msg: result.msg };
  return { ok: false, kind: outcome === 'server' ? 'server' : 'network', msg: result.msg };
}
