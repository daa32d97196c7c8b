import type { IncomingHttpHeaders } from 'node:http';
import {
  chunkFields,
  type ChunkFields,
  type ChunkResponse,
  type InitRequest,
  type InitResponse,
  type Library,
  type UploadConfig,
} from '@atrium/shared/contract/files';
import { int32Max } from '@atrium/shared/contract/fields';
import { fieldName } from '@atrium/shared/messages/catalogue';
import { missingRanges } from '@atrium/shared/upload-chunks';
import { ApiError, message } from '../../../http/envelope';
import { describeZodError } from '../../../http/errors';
import type { Instances } from '../../../instances/instances';
import type { Storage } from '../../../storage/index';
import type { FilesDb, Owner, SessionRow } from '../library.tables';
import { BlobStore } from './blob-store';
import { ChunkIntake, type ChunkBody } from './chunk-intake';
import { ChunkFormError, readChunkForm, type FileSink } from './chunk-form';
import { RunningHashes } from './running-hash';
import { receiptOf, stagingOf } from './staging';
import { sessionKeyColumns, type SessionKey } from './sessions.repository';
import { fileOfChunk, grantCovers, type Grant, type GrantedFile } from './upload-grants.service';
import { UploadFinisher } from './upload-finisher';
import { UploadLeases, type Log } from './upload-leases';
import type { UploadParts } from './upload-parts';
import { uploadRecords, type UploadRecords } from './upload-records';
import {
  about,
  checkAllowed,
  checkFileName,
  checkMd5,
  loadUploadConfig,
  maxStrippedSize,
  stripsIn,
  type SettingsReader,
} from './upload-rules';
import { UploadSweeper, type SweepResult } from './upload-sweeper';
import { notOffered, refuseActionNotOffered } from '../actions-not-offered';

export { thumbWidth } from './blob-store';
export { orphanGraceMs, uploadTtlMs, type SweepResult } from './upload-sweeper';
export { maxStrippedSize } from './upload-rules';
export type { ChunkBody } from './chunk-intake';

/** A part one byte over the chunk size still arrives, so the answer can say it was one byte too long. */
const oneByteOver = 1;

/** How long a fold waits for the chunks before it to be folded elsewhere (see RunningHashes). */
const hashWaitMs = 2_000;

export interface UploadServiceDeps {
  db: FilesDb;
  storage: Storage;
  /** This process among the instances: what it holds names it (see `Instances`). */
  instances: Instances;
  /**
   * Whether another instance may continue an upload's hashes (default): off for a single instance
   * (SQLite), whose SHA-256 then runs on node's faster code and stays in the process.
   */
  portableHashes?: boolean;
  settings?: SettingsReader | undefined;
  clock?: () => number;
  log?: Log;
}

/** A chunk request as it arrives over HTTP: its multipart body, read once, and its headers. */
export interface ChunkRequest {
  body: AsyncIterable<Buffer>;
  headers: IncomingHttpHeaders;
  /** The one file a WebUploader's upload grant lets the caller send; undefined: any file. */
  grant?: Grant | undefined;
  /** Told of the file a valid chunk belongs to before it is stored (the grant notes it). */
  noteFile?: (file: GrantedFile) => Promise<void>;
}

/** Whose library a chunk goes to, and the origin its answer's full address starts with. */
export interface UploadCaller {
  owner: Owner;
  library: Library;
  origin: string;
}

/** Chunks held from index 0 without a gap. */
function contiguous(indexes: readonly number[]): number {
  const held = new Set(indexes);
  let count = 0;
  while (held.has(count)) count += 1;
  return count;
}

/**
 * The chunked upload engine (DESIGN 6): sessions keyed by (owner, library, md5, size, name),
 * bounded chunk indexes with exact sizes, running MD5 and SHA-256 kept in the database so any
 * instance can continue them (`RunningHashes`), and verification at the end. Who writes a chunk
 * or finishes an upload is agreed in `UploadLeases`; verified bytes go to `BlobStore`; what is
 * left behind is freed by `UploadSweeper`.
 */
export class UploadService {
  readonly repo: UploadRecords;
  private readonly storage: Storage;
  private readonly instances: Instances;
  private readonly settings: SettingsReader | undefined;
  private readonly clock: () => number;
  private readonly log: UploadServiceDeps['log'];
  private readonly hashes: RunningHashes;
  private readonly leases: UploadLeases;
  private readonly blobs: BlobStore;
  private readonly sweeper: UploadSweeper;
  private readonly intake: ChunkIntake;

  constructor(deps: UploadServiceDeps) {
    this.repo = uploadRecords(deps.db);
    this.storage = deps.storage;
    this.instances = deps.instances;
    this.settings = deps.settings;
    this.clock = deps.clock ?? Date.now;
    this.log = deps.log;
    this.leases = new UploadLeases(this.repo, this.instances, this.clock, this.log);
    this.blobs = new BlobStore(
      this.repo,
      this.storage,
      this.leases,
      this.instances.id,
      this.clock,
      this.log,
    );
    this.sweeper = new UploadSweeper(
      this.repo,
      this.storage,
      this.blobs,
      (session) => this.resetSession(session),
      this.log,
    );
    this.hashes = new RunningHashes({
      repo: this.repo,
      storage: this.storage,
      instances: this.instances,
      log: this.log,
      waitMs: hashWaitMs,
      portable: deps.portableHashes ?? true,
    });
    const parts: UploadParts = {
      repo: this.repo,
      storage: this.storage,
      instances: this.instances,
      clock: this.clock,
      log: this.log,
      hashes: this.hashes,
      leases: this.leases,
      blobs: this.blobs,
      config: () => this.config(),
      resetSession: (session) => this.resetSession(session),
    };
    this.intake = new ChunkIntake(parts, new UploadFinisher(parts));
  }

  config(): Promise<UploadConfig> {
    return loadUploadConfig(this.settings, this.storage.minChunkSize);
  }

  async init(
    owner: Owner,
    library: Library,
    request: InitRequest,
    origin: string,
  ): Promise<InitResponse> {
    const { name, ext } = checkFileName(request.name);
    const config = await this.config();
    checkAllowed(config, library, ext, request.size);
    const md5 = checkMd5(request.md5);
    const size = request.size;
    const chunkSize = config.chunkSize;
    const chunks = Math.ceil(size / chunkSize);
    // The count is kept in an `integer` column: an admin's tiny chunk size and huge size limit
    // must not let a file need more chunks than that holds.
    if (chunks > int32Max) {
      throw new ApiError(about('size', message('files.tooManyChunks', { chunkSize })));
    }
    const key: SessionKey = { owner, library, md5, size, name };
    const stripped = stripsIn(config, library, ext);
    if (stripped && size > maxStrippedSize) {
      throw new ApiError(
        about('size', message('files.tooLargeToStrip', { max: maxStrippedSize / 1024 / 1024 })),
      );
    }

    const instant = await this.blobs.shareOwned({ owner, library, name, ext }, md5, size, stripped);
    if (instant) {
      const leftover = await this.repo.sessions.findSession(key);
      if (leftover) await this.resetSession(leftover);
      return {
        chunkUploaded: chunks,
        chunks,
        chunkSize,
        path: instant,
        fullPath: origin + instant,
        data: { filename: name, size },
      };
    }

    let session = await this.repo.sessions.findSession(key);
    if (session && session.chunkSize !== chunkSize) {
      // The admin changed the chunk size: chunk boundaries no longer line up, start over.
      await this.resetSession(session);
      session = undefined;
    }
    if (session?.verifiedBlob) {
      // Verified by a finish cut short (its bytes may be on their way to the content address
      // already, out of staging): the last chunk, sent again, completes it.
      await this.repo.sessions.touchSession(session.id, this.clock());
      return { chunkUploaded: chunks - 1, chunks, chunkSize, missing: [[chunks - 1, chunks]] };
    }
    if (session) {
      const receipts = (await this.repo.chunks.listChunks(session.id)).map(receiptOf);
      const stored = await this.storage.storedChunks(stagingOf(session), chunkSize, receipts);
      if (stored.length !== receipts.length) {
        this.log?.warn(
          { sessionId: session.id },
          'upload staging lost chunks; starting the upload over',
        );
        await this.resetSession(session);
      } else {
        await this.repo.sessions.touchSession(session.id, this.clock());
        // With every chunk held but no result yet (a lost answer or a crash while finishing), the
        // client re-sends the last chunk, which finishes the upload.
        return {
          chunkUploaded: Math.min(contiguous(stored), chunks - 1),
          chunks,
          chunkSize,
          missing: missingRanges(stored, chunks),
        };
      }
    }
    await this.openSession(key, ext, chunkSize, chunks);
    return { chunkUploaded: 0, chunks, chunkSize, missing: [[0, chunks]] };
  }

  private async openSession(
    key: SessionKey,
    ext: string,
    chunkSize: number,
    chunks: number,
  ): Promise<void> {
    const staging = await this.storage.beginUpload();
    const now = this.clock();
    const id = await this.repo.sessions.insertSession({
      ...sessionKeyColumns(key),
      ext,
      chunkSize,
      chunks,
      stagingKey: staging.key,
      stagingUploadId: staging.uploadId,
      md5State: null,
      hashedChunks: 0,
      status: 'open',
      instanceId: null,
      verifiedBlob: null,
      createdAt: now,
      updatedAt: now,
    });
    // Another request opened the same session first: keep theirs.
    if (id === undefined) await this.storage.abort(staging);
  }

  /**
   * Receives one chunk request (SPEC 7.2: a multipart form from WebUploader or our button): the
   * chunk goes to its place in staging while it arrives (a sink opened from the fields sent
   * before the file), and counts once checked whole. The sink is given up however the request
   * ends, so only a crashed process leaves a claim behind. `refused`: the caller's upload grant
   * does not cover the file the chunk belongs to.
   */
  async receiveChunk(
    request: ChunkRequest,
    caller: UploadCaller,
  ): Promise<{ answer: ChunkResponse } | { refused: 'grant' }> {
    const { owner, library, origin } = caller;
    const { chunkSize } = await this.config();
    const covered = (fields: ChunkFields) =>
      !request.grant || grantCovers(request.grant, fileOfChunk(library, fields));
    let form;
    try {
      form = await readChunkForm(
        request.body,
        request.headers,
        { fileSize: chunkSize + oneByteOver, fields: 20, fieldSize: 4096 },
        {
          open: async (fields) => {
            if (notOffered(fields.action)) return undefined;
            const early = chunkFields.safeParse(fields);
            if (!early.success || !covered(early.data)) return undefined;
            return this.openChunkSink(owner, library, early.data);
          },
        },
      );
    } catch (error) {
      if (!(error instanceof ChunkFormError)) throw error;
      throw new ApiError(
        error.tooLarge
          ? { ...message('files.chunkTooLarge', { max: chunkSize }), field: 'file' }
          : error.ref,
      );
    }
    try {
      refuseActionNotOffered(form.fields.action);
      const parsed = chunkFields.safeParse(form.fields);
      if (!form.file || !parsed.success) {
        form.release();
        throw new ApiError(
          parsed.success
            ? { ...message('validation.required', { field: fieldName('file') }), field: 'file' }
            : describeZodError(parsed.error, form.fields),
        );
      }
      if (!covered(parsed.data)) {
        form.release();
        return { refused: 'grant' };
      }
      const file = fileOfChunk(library, parsed.data);
      if (file) await request.noteFile?.(file);
      const answer = await this.chunk(owner, library, parsed.data, form.file, origin, {
        release: form.release,
        written: form.written,
        transferable: form.transferable,
      });
      return { answer };
    } finally {
      // `chunk` gives the sink's claim up; a form refused before it must too (this is idempotent).
      await this.intake.dropSink(form.written);
    }
  }

  /** Stores one chunk; see `ChunkBody` for what the caller may say about `data`. */
  chunk(
    owner: Owner,
    library: Library,
    fields: ChunkFields,
    data: Buffer,
    origin: string,
    body: ChunkBody = {},
  ): Promise<ChunkResponse> {
    return this.intake.chunk(owner, library, fields, data, origin, body);
  }

  /** See `ChunkIntake.openChunkSink`. */
  openChunkSink(
    owner: Owner,
    library: Library,
    fields: ChunkFields,
  ): Promise<FileSink | undefined> {
    return this.intake.openChunkSink(owner, library, fields);
  }

  /** Drops a session and its bytes; the next init starts from chunk 0. */
  private async resetSession(session: SessionRow): Promise<void> {
    this.hashes.forget(session.id);
    await this.repo.sessions.deleteSession(session.id);
    try {
      await this.storage.abort(stagingOf(session));
    } catch (error) {
      this.log?.warn(
        { err: error, sessionId: session.id },
        'could not free the bytes of a dropped upload session',
      );
    }
  }

  /** Deletes a blob nothing points at any more, with its thumbnail. */
  collectBlob(blobId: number): Promise<void> {
    return this.blobs.collect(blobId);
  }

  /** See `UploadSweeper`. */
  sweep(now: number = this.clock()): Promise<SweepResult> {
    return this.sweeper.sweep(now);
  }

  /** Stops the hash workers. */
  close(): Promise<void> {
    return this.hashes.close();
  }

  /** Runs `sweep` every `intervalMs` until the returned function is called. */
  startSweeper(intervalMs: number): () => void {
    return this.sweeper.start(intervalMs, this.clock);
  }
}
