import type { AnswerOf, RequestOf } from '@atrium/shared/contract/call';
import type { FileManagerCalls } from '@atrium/shared/contract/files';
import type { Outage } from '@atrium/shared/outage';

/**
 * The upload calls as the upload engine uses them, typed by their declarations in
 * packages/shared/src/contract/files.ts (SPEC 7.2): what `init`, a chunk and `save` send and answer.
 */

/** `init`'s fields besides `action`. */
export type InitMeta = Required<Omit<RequestOf<FileManagerCalls['init']>, 'action'>>;
/** Answer of `init`: instant upload when every chunk is held and the path is given (DESIGN 6). */
type InitAnswer = AnswerOf<FileManagerCalls['init']>;
/** Form fields of one chunk besides the file part; numbers travel as text (SPEC 7.2). */
export type ChunkFields = Record<keyof RequestOf<FileManagerCalls['chunk']>, string | number>;
/** Answer of a chunk; only the last one carries the stored file. */
export type ChunkAnswer = AnswerOf<FileManagerCalls['chunk']>;
/** `save`'s fields besides `action`. */
export type SaveBody = Omit<RequestOf<FileManagerCalls['save']>, 'action'>;
type SaveAnswer = AnswerOf<FileManagerCalls['save']>;

/**
 * How a call ended: `code` is the server refusing (non-zero code, its msg), `server` an HTTP
 * 5xx, `network` anything that kept the answer from arriving. `outage`: the refusal was for an
 * outage (code 1005), which passes: the call may be tried again after `retryAfterSeconds`.
 * A refusal carries its `code` and the catalogue `key` it names, so the button can tell a refusal
 * that sending again cannot change (the content, the rules, a quota) from one that passes.
 */
export type CallResult<T> =
  | { ok: true; data: T }
  | {
      ok: false;
      kind: 'code' | 'server' | 'network';
      msg: string;
      code?: number;
      key?: string;
      outage?: { outage: Outage; retryAfterSeconds: number };
    };

export interface UploadTransport {
  init(meta: InitMeta, signal: AbortSignal): Promise<CallResult<InitAnswer>>;
  chunk(
    fields: ChunkFields,
    body: Blob,
    signal: AbortSignal,
    onProgress: (loaded: number) => void,
  ): Promise<CallResult<ChunkAnswer>>;
  save(body: SaveBody, signal: AbortSignal): Promise<CallResult<SaveAnswer>>;
}
