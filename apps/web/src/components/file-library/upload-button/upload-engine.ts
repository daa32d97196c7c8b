import type {
  CallResult,
  ChunkAnswer,
  ChunkFields,
  InitMeta,
  SaveBody,
  UploadTransport,
} from '@/components/file-library/api/upload-calls';
import type { Outage } from '@atrium/shared/outage';
import type { SavedFile } from '@atrium/shared/contract/files';
import { Limits, shouldRetryUpload } from '@atrium/shared/limits';
import { chunkCount, chunksToSend, type ChunkRange } from './upload-rules';

export type UploadStage = 'hash' | 'init' | 'chunk' | 'save';

export class UploadError extends Error {
  constructor(
    readonly stage: UploadStage,
    readonly kind: 'code' | 'server' | 'network' | 'failed',
    message: string,
    /** The outage the server still refused the call for when the engine stopped waiting. */
    readonly outage?: Outage,
    /** The refusal's code and catalogue key, when the server refused (`kind` 'code'). */
    readonly refusal?: { code: number; key?: string },
  ) {
    super(message);
  }
}

export class UploadCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

interface UploadProgress {
  phase: 'hash' | 'upload';
  /** 0 to 100 within the phase. */
  percent: number;
}

/** What the page gets (SPEC 3.6): name, size, path, fullPath; `saved` is the save call's data. */
export interface UploadResult {
  name: string;
  size: number;
  path: string;
  fullPath: string;
  /**
   * The library file the upload was saved as (with `saveInto`); `existing` when the category
   * held the same bytes under the same name already, and that file is it.
   */
  saved?: SavedFile;
}

export interface UploadOptions {
  file: File;
  /** The queue id sent as the chunk's `id` field. */
  id: string;
  chunkSize: number;
  transport: UploadTransport;
  hash: (
    blob: Blob,
    onProgress: (done: number, total: number) => void,
    signal: AbortSignal,
  ) => Promise<string>;
  signal: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  /** Files the upload into this category (0 from the plain button) once it is stored. */
  saveInto?: number;
  chunkRetries?: number;
  /**
   * Chunks in flight at once (default 1, SPEC's one at a time). Whichever chunk completes the
   * file is answered with its path (the server counts what it holds as it records each chunk,
   * so exactly one answer finishes the upload).
   */
  parallel?: number;
  /** How many times a `ShouldRetryUpload` answer may restart the file. */
  fileRetries?: number;
  retryDelayMs?: (attempt: number) => number;
  /**
   * Told while calls are refused for an outage (code 1005: storage, database, Redis out of reach,
   * or the disk full) and the engine waits to try them again; undefined once one went through.
   */
  onOutage?: (outage: Outage | undefined) => void;
  /** How long one call is tried again while it is refused for an outage (default 2 minutes). */
  outageWaitMs?: number;
  /** The pause before the next try of a call refused for an outage (see `outagePauseMs`). */
  outageDelayMs?: (attempt: number, retryAfterSeconds: number) => number;
  /** The clock `outageWaitMs` is measured on (milliseconds; tests pass their own). */
  now?: () => number;
}

/**
 * The pause before trying again a call refused for an outage: at least what the server asked for
 * (`retryAfterSeconds`), growing with each try up to 15 s, so a long outage is not hammered.
 */
export function outagePauseMs(attempt: number, retryAfterSeconds: number): number {
  return Math.max(retryAfterSeconds * 1000, Math.min(15_000, 1000 * 2 ** attempt));
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    // An abort that came first would never fire the listener: the pause would run its course.
    if (signal.aborted) return reject(new UploadCancelled());
    if (ms <= 0) return resolve();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new UploadCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * The call's answer, or UploadCancelled as soon as the upload is cancelled: a call whose answer is
 * late (held by the server, or a transport that cannot cut it) never holds up or revives a
 * cancelled upload, whatever it answers later.
 */
function unlessCancelled<T>(call: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new UploadCancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new UploadCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    call.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) reject(new UploadCancelled());
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new UploadCancelled() : error);
      },
    );
  });
}

function refusalOf(answer: { kind: string; code?: number; key?: string }) {
  return answer.kind === 'code' && answer.code !== undefined
    ? { code: answer.code, ...(answer.key ? { key: answer.key } : {}) }
    : undefined;
}

class RestartFile extends Error {}

/** Of the lanes' failures, the one to act on: a final refusal before a restart asked beside it. */
function firstFailure(settled: PromiseSettledResult<unknown>[]): unknown {
  const failures = settled
    .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    .map((r) => r.reason as unknown);
  return failures.find((reason) => !(reason instanceof RestartFile)) ?? failures[0];
}

/**
 * One file through SPEC 4.5: hash, init (resume from chunkUploaded, or from the missing chunks
 * init lists), the chunks with retries (up to `parallel` at once), the whole
 * file again on `ShouldRetryUpload`, then the optional save.
 */
export async function runUpload(options: UploadOptions): Promise<UploadResult> {
  const { file, signal, transport } = options;
  const chunkRetries = options.chunkRetries ?? Limits.uploadChunkRetries;
  const fileRetries = options.fileRetries ?? 2;
  const delay = options.retryDelayMs ?? ((attempt: number) => 300 * attempt);
  const cancelled = () => {
    if (signal.aborted) throw new UploadCancelled();
  };
  const outageWaitMs = options.outageWaitMs ?? 120_000;
  const outageDelay = options.outageDelayMs ?? outagePauseMs;

  let md5: string;
  try {
    md5 = await options.hash(
      file,
      (done, total) =>
        options.onProgress?.({ phase: 'hash', percent: total ? (done / total) * 100 : 100 }),
      signal,
    );
  } catch (error) {
    cancelled();
    throw new UploadError('hash', 'failed', error instanceof Error ? error.message : String(error));
  }
  cancelled();

  const lastModifiedDate = new Date(file.lastModified).toISOString();
  const meta: InitMeta = {
    name: file.name,
    type: file.type,
    lastModifiedDate,
    size: file.size,
    md5,
  };
  const total = chunkCount(file.size, options.chunkSize);

  for (let round = 0; ; round++) {
    try {
      const stored = await sendFile(meta, total);
      return await save(stored);
    } catch (error) {
      if (error instanceof RestartFile && round < fileRetries) continue;
      if (error instanceof RestartFile) throw new UploadError('chunk', 'code', error.message);
      throw error;
    }
  }

  async function sendFile(meta: InitMeta, total: number): Promise<Omit<UploadResult, 'saved'>> {
    const init = await patiently('init', () => transport.init(meta, signal));
    if (!init.ok) {
      if (init.msg.includes(shouldRetryUpload)) throw new RestartFile(init.msg);
      throw new UploadError('init', init.kind, init.msg, undefined, refusalOf(init));
    }
    const answer = init.data;
    if (answer.path && answer.chunkUploaded >= total) {
      options.onProgress?.({ phase: 'upload', percent: 100 });
      return {
        name: answer.data?.filename ?? file.name,
        size: answer.data?.size ?? file.size,
        path: answer.path,
        fullPath: answer.fullPath ?? answer.path,
      };
    }
    // Every chunk held but no path: re-send the last one (accepted idempotently) to finish.
    const from = Math.min(answer.chunkUploaded, total - 1);
    const ranges = chunksToSend(file.size, options.chunkSize, from, answer.missing);
    if (ranges.length === 0) throw new UploadError('init', 'failed', 'no chunk left to send');
    const sent = new Map<number, number>();
    const held = file.size - ranges.reduce((sum, r) => sum + (r.end - r.start), 0);
    const report = (index: number, loaded: number) => {
      sent.set(index, loaded);
      let done = held;
      for (const bytes of sent.values()) done += bytes;
      options.onProgress?.({
        phase: 'upload',
        percent: file.size ? Math.min(100, (done / file.size) * 100) : 100,
      });
    };
    let finished: ChunkAnswer | undefined;
    let next = 0;
    // The first chunk goes alone: the server checks the content against the extension on it, so
    // a file that is not what its name says is refused after one chunk, not after several.
    if (ranges.length > 1 && ranges[0]?.index === 0) {
      const first = await sendChunk(ranges[0], total, report);
      if (first.path) finished = first;
      next = 1;
    }
    const lanes = Math.max(1, Math.min(options.parallel ?? 1, ranges.length - next));
    let failed = false;
    const lane = async () => {
      try {
        while (!failed && next < ranges.length) {
          const range = ranges[next++] as ChunkRange;
          const answer = await sendChunk(range, total, report);
          if (answer.path) finished = answer;
        }
      } catch (error) {
        failed = true;
        throw error;
      }
    };
    // A failure stops the other lanes taking new chunks; the file goes on (or restarts) only
    // once none of its chunks is in flight.
    const settled = await Promise.allSettled(Array.from({ length: lanes }, lane));
    if (settled.some((r) => r.status === 'rejected')) throw firstFailure(settled);
    // Every chunk held and none answered with the path (that answer was lost on a retry): the
    // last one, sent again (accepted idempotently), is answered with it.
    const last =
      finished ?? (await sendChunk(ranges[ranges.length - 1] as ChunkRange, total, report));
    const path = last.path;
    if (!path) throw new UploadError('chunk', 'failed', 'no path in the last answer');
    return {
      name: last.data?.filename ?? file.name,
      size: last.data?.size ?? file.size,
      path,
      fullPath: last.fullPath ?? path,
    };
  }

  async function sendChunk(
    range: ChunkRange,
    total: number,
    progress: (index: number, loaded: number) => void,
  ): Promise<ChunkAnswer> {
    const fields: ChunkFields = {
      id: options.id,
      name: file.name,
      type: file.type,
      lastModifiedDate,
      size: file.size,
      chunks: total,
      chunk: range.index,
      md5: meta.md5,
    };
    const body = file.slice(range.start, range.end);
    const report = (loaded: number) =>
      progress(range.index, Math.min(range.end - range.start, Math.max(0, loaded)));
    report(0);
    for (let attempt = 0; ; attempt++) {
      const answer = await patiently('chunk', () => transport.chunk(fields, body, signal, report));
      if (answer.ok) {
        report(range.end - range.start);
        return answer.data;
      }
      if (answer.msg.includes(shouldRetryUpload)) throw new RestartFile(answer.msg);
      if (answer.kind === 'code' || attempt >= chunkRetries)
        throw new UploadError('chunk', answer.kind, answer.msg, undefined, refusalOf(answer));
      await sleep(delay(attempt + 1), signal);
    }
  }

  async function save(stored: Omit<UploadResult, 'saved'>): Promise<UploadResult> {
    if (options.saveInto === undefined) return stored;
    const body: SaveBody = {
      path: stored.path,
      name: stored.name,
      size: stored.size,
      categoryId: options.saveInto,
    };
    const answer = await patiently('save', () => transport.save(body, signal));
    if (!answer.ok)
      throw new UploadError('save', answer.kind, answer.msg, undefined, refusalOf(answer));
    const saved = answer.data;
    // The category had these bytes under this name (issue 28): the page gets that file, and the
    // upload's own address, let go by the server, is not handed on.
    if (saved.existing)
      return {
        name: saved.name,
        size: saved.size,
        path: saved.path,
        fullPath: saved.fullPath,
        saved,
      };
    return { ...stored, saved };
  }

  /**
   * Makes a call, and again while the server refuses it for an outage (code 1005), which passes
   * by itself: the session and the chunks it holds are kept, so nothing restarts and no retry
   * budget is spent; the person is told meanwhile (`onOutage`). Gives up after `outageWaitMs`.
   */
  async function patiently<T>(
    stage: UploadStage,
    call: () => Promise<CallResult<T>>,
  ): Promise<CallResult<T>> {
    const now = options.now ?? Date.now;
    const started = now();
    let waited = false;
    for (let attempt = 0; ; attempt++) {
      const answer = await unlessCancelled(call(), signal);
      if (answer.ok || !answer.outage) {
        if (waited) options.onOutage?.(undefined);
        return answer;
      }
      const { outage, retryAfterSeconds } = answer.outage;
      const left = outageWaitMs - (now() - started);
      if (left <= 0) throw new UploadError(stage, 'code', answer.msg, outage, refusalOf(answer));
      waited = true;
      options.onOutage?.(outage);
      await sleep(Math.min(left, outageDelay(attempt, retryAfterSeconds)), signal);
    }
  }
}
