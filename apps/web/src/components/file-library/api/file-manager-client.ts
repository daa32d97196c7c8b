import { Code, type Envelope } from '@atrium/shared/codes';
import { Limits } from '@atrium/shared/limits';
import {
  outageOfEnvelope,
  retryAfterSeconds as retryAfter,
  type UnavailableData,
} from '@atrium/shared/outage';
import { announce, callHeaders, readAnswer, timeoutReason, transportFailure } from '@/lib/api';
import { failureRef } from '@/lib/messages';
import type { AnswerOf, RequestOf } from '@atrium/shared/contract/call';
import type { FileManagerCalls } from '@atrium/shared/contract/files';
import type { CallResult } from './upload-calls';

/**
 * Calls of the file library at `{url}/{category}` (SPEC 7.2, 7.3). They live outside `api/`, where
 * the shared client posts, and chunks are multipart with upload progress: so this sends through
 * XMLHttpRequest, with the shared client's rules (SPEC 7.1, 8.1) taken from `lib/api`: headers,
 * token renewal, reading the answer, the "Request failed..." texts, code processors and toasts.
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
type CallOutcome = 'answered' | 'network' | 'server' | 'cancelled';

export interface FileManagerAnswer<T> {
  result: Envelope<T>;
  outcome: CallOutcome;
}

class FileManagerError extends Error {
  constructor(readonly result: Envelope) {
    super(result.msg);
    this.name = 'FileManagerError';
  }
}

function fileManagerAddress(url: string, category: string): string {
  return `${url.replace(/\/+$/, '')}/${encodeURIComponent(category)}`;
}

function sendOnce<T>(
  address: string,
  body: FormData | object,
  options: FileManagerOptions,
): Promise<FileManagerAnswer<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const timeoutMs = options.timeoutMs ?? Limits.apiTimeoutMs;
    const done = (result: Envelope, outcome: CallOutcome) => {
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ result: result as Envelope<T>, outcome });
    };
    const onAbort = () => xhr.abort();

    xhr.open('POST', address);
    xhr.timeout = timeoutMs;
    for (const [name, value] of Object.entries(callHeaders())) xhr.setRequestHeader(name, value);
    if (options.onUploadProgress) {
      const report = options.onUploadProgress;
      xhr.upload.onprogress = (event) => report(event.loaded);
    }
    xhr.onload = () => {
      const { result, kind } = readAnswer({
        status: xhr.status,
        statusText: xhr.statusText,
        text: xhr.responseText,
        header: (name) => xhr.getResponseHeader(name),
      });
      done(result, kind);
    };
    xhr.onerror = () => done(transportFailure('network error'), 'network');
    xhr.ontimeout = () => done(transportFailure(timeoutReason(timeoutMs)), 'network');
    xhr.onabort = () => done(transportFailure('aborted'), 'cancelled');

    if (options.signal?.aborted) return done(transportFailure('aborted'), 'cancelled');
    options.signal?.addEventListener('abort', onAbort);
    if (body instanceof FormData) {
      xhr.send(body);
    } else {
      xhr.setRequestHeader('Content-Type', 'application/json');
      xhr.send(JSON.stringify(body));
    }
  });
}

/** A JSON action of the file manager (the chunk call is multipart: `sendChunk`). */
export type JsonAction = Exclude<keyof FileManagerCalls, 'chunk'>;
/** An action's fields besides `action`, typed by its declaration. */
export type FileManagerBody<A extends JsonAction> = Omit<RequestOf<FileManagerCalls[A]>, 'action'>;
/** The `data` of an action's success, typed by its declaration. */
export type FileManagerData<A extends keyof FileManagerCalls> = AnswerOf<FileManagerCalls[A]>;

async function settle<T>(
  address: string,
  body: FormData | object,
  options: FileManagerOptions,
): Promise<FileManagerAnswer<T>> {
  const answer = await sendOnce<T>(address, body, options);
  if (answer.outcome !== 'cancelled') {
    announce(answer.result, {
      successToast: options.successToast === true,
      errorToast: options.errorToast !== false,
    });
  }
  return answer;
}

/**
 * Posts an action to `{url}/{category}` and resolves with the envelope and how the call ended;
 * never rejects. A success carries the declared answer: the server's tests parse each one.
 */
export function callFileManager<A extends JsonAction>(
  url: string,
  category: string,
  action: A,
  body: FileManagerBody<A>,
  options: FileManagerOptions = {},
): Promise<FileManagerAnswer<FileManagerData<A>>> {
  return settle(fileManagerAddress(url, category), { action, ...body }, options);
}

/** Sends one chunk as multipart (SPEC 7.2), with upload progress. */
export function sendChunk(
  url: string,
  category: string,
  form: FormData,
  options: FileManagerOptions = {},
): Promise<FileManagerAnswer<FileManagerData<'chunk'>>> {
  return settle(fileManagerAddress(url, category), form, options);
}

/** For query and mutation functions: `data` on code 0, otherwise a rejection carrying the envelope. */
export async function fileManagerData<A extends JsonAction>(
  url: string,
  category: string,
  action: A,
  body: FileManagerBody<A>,
  options: FileManagerOptions = {},
): Promise<FileManagerData<A>> {
  const { result } = await callFileManager(url, category, action, body, options);
  if (result.code !== Code.Success) throw new FileManagerError(result);
  return result.data;
}

/** Query keys of one library at one address, so a change can refresh exactly what it touched. */
export const fileKeys = {
  categories: (url: string, category: string) => ['files', url, category, 'categories'] as const,
  lists: (url: string, category: string) => ['files', url, category, 'list'] as const,
  list: (
    url: string,
    category: string,
    categoryId: number,
    page: number,
    keywords: string,
    unused = false,
    /** Sort and filter fields as sent (issue 17); none: newest first, everything. */
    view: object = {},
  ) => ['files', url, category, 'list', categoryId, page, keywords, unused, view] as const,
  uploadConfig: (url: string) => ['files', url, 'upload-config'] as const,
};

/** The upload engine's view of an answer: data, or why not (refused, server failure, network). */
export function toCallResult<T>({ result, outcome }: FileManagerAnswer<T>): CallResult<T> {
  if (outcome === 'answered' && result.code === Code.Success)
    return { ok: true, data: result.data };
  const outage = outcome === 'answered' ? outageOfEnvelope(result) : undefined;
  if (outage) {
    const hint = (result.data as Partial<UnavailableData> | null)?.params?.retryAfterSeconds;
    const retryAfterSeconds = typeof hint === 'number' && hint > 0 ? hint : retryAfter[outage];
    return {
      ok: false,
      kind: 'code',
      msg: result.msg,
      code: result.code,
      outage: { outage, retryAfterSeconds },
    };
  }
  if (outcome === 'answered') {
    const key = failureRef(result.data)?.key;
    return { ok: false, kind: 'code', msg: result.msg, code: result.code, ...(key ? { key } : {}) };
  }
  return { ok: false, kind: outcome === 'server' ? 'server' : 'network', msg: result.msg };
}
