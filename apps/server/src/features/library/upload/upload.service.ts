import type {
  ChunkFields,
  ChunkResponse,
  InitRequest,
  InitResponse,
  Library,
  UploadConfig,
} from '@atrium/shared/contract/files';
import { int32Max } from '@atrium/shared/contract/fields';
import { missingRanges } from '@atrium/shared/upload-chunks';
import { ApiError, message } from '../../../http/envelope';
import type { Instances } from '../../../instances/instances';
import {
  StorageDamagedError,
  readAll,
  StorageNotFoundError,
  type ChunkReceipt,
  type Storage,
} from '../../../storage/index';
import type { FilesDb, Owner, SessionRow } from '../library.tables';
import { BlobStore, type StoredForm } from './blob-store';
import type { FileSink } from './chunk-form';
import { checkFirstChunk, checkStagedContent, contentRefusal } from './content-check';
import { receiptOf, RunningHashes, stagingOf, type Release } from './running-hash';
import { ChunkSink, LeaseLost, UploadLeases, type Claim, type Log } from './upload-leases';
import {
  about,
  checkAllowed,
  checkFileName,
  checkMd5,
  loadUploadConfig,
  NoUploadInProgress,
  parseStrictInteger,
  retryUpload,
  type ChunkOfFile,
  type SettingsReader,
} from './upload-rules';
import { UploadSweeper, type SweepResult } from './upload-sweeper';
import { sessionKeyColumns, type SessionKey } from './sessions.repository';
import { uploadRecords, type UploadRecords } from './upload-records';
import { MalformedImage, stripMetadata, stripsMetadata } from './strip-metadata/index';
import { tapUploadChunk } from '../../../ops/taps';

export { thumbWidth } from './blob-store';
export { orphanGraceMs, uploadTtlMs, type SweepResult } from './upload-sweeper';

/** How long a fold waits for the chunks before it to be folded elsewhere (see RunningHashes). */
const hashWaitMs = 2_000;

/**
 * Largest image whose metadata is removed (it is read whole into memory to be rewritten): a
 * bigger one is refused at init by a library that does not keep originals.
 */
export const maxStrippedSize = 256 * 1024 * 1024;

/**
 * Whether an upload of this extension to this library is stored without its privacy metadata
 * (issue 17): true or false for the image formats that can be, undefined for the others.
 */
function stripsIn(config: UploadConfig, library: Library, ext: string): boolean | undefined {
  if (!stripsMetadata(ext)) return undefined;
  return config.category[library].keepMetadata !== true;
}

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

/**
 * The answer to an image whose metadata could not be read to be removed; where it is broken is
 * told in `data.detail` (for the technical reader).
 */
function unreadableImage(error: MalformedImage): ApiError {
  return contentRefusal(message('files.imageDamaged'), { detail: error.message });
}

/** Chunks held from index 0 without a gap. */
function contiguous(indexes: readonly number[]): number {
  const held = new Set(indexes);
  let count = 0;
  while (held.has(count)) count += 1;
  return count;
}

function chunkLength(session: SessionRow, index: number): number {
  return index < session.chunks - 1
    ? session.chunkSize
    : session.size - session.chunkSize * (session.chunks - 1);
}

export type { Release };

/** What a chunk's record answers about its session. */
interface ChunkCounts {
  heldChunks: number;
  contiguousChunks: number;
}

/** The session and chunk a chunk request names (see `UploadService.chunkTarget`). */
interface Target {
  session: SessionRow;
  index: number;
  expected: number;
  /** Whether the session held the chunk when it was read. */
  held: boolean;
}

/** Whether a sink was opened for the chunk these fields name. */
function sameChunk(sink: ChunkSink, owner: Owner, library: Library, fields: ChunkFields): boolean {
  const { session } = sink;
  return (
    session.ownerType === owner.type &&
    session.ownerId === owner.id &&
    session.library === library &&
    fields.name === session.name &&
    typeof fields.md5 === 'string' &&
    fields.md5.toLowerCase() === session.md5 &&
    fields.size === String(session.size) &&
    fields.chunks === String(session.chunks) &&
    fields.chunk === String(sink.index)
  );
}

/** What the caller of `UploadService.chunk` says about the chunk's bytes. */
export interface ChunkBody {
  /** Called once the engine no longer reads the bytes (their hash may run on after the answer). */
  release?: Release;
  /** The sink that already put exactly these bytes in place (see `openChunkSink`). */
  written?: FileSink | undefined;
  /**
   * The whole ArrayBuffer under the bytes is the caller's to lend: the hash threads may take it
   * without a copy, and `release` then gets it back.
   */
  transferable?: boolean;
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

  /** Stores one chunk; see `ChunkBody` for what the caller may say about `data`. */
  async chunk(
    owner: Owner,
    library: Library,
    fields: ChunkFields,
    data: Buffer,
    origin: string,
    body: ChunkBody = {},
  ): Promise<ChunkResponse> {
    const release = body.release ?? (() => undefined);
    let handedOver = false;
    try {
      return await this.storeChunk(owner, library, fields, data, origin, body, () => {
        handedOver = true;
        return release;
      });
    } catch (error) {
      if (!(error instanceof NoUploadInProgress)) throw error;
      return await this.finishedChunk(owner, library, error.chunk, data.length, origin);
    } finally {
      if (!handedOver) release();
      if (body.written instanceof ChunkSink) await body.written.release();
    }
  }

  /**
   * The answer to a chunk of a file that has no session because it is finished: an instant
   * upload, or an upload whose last answer was lost. WebUploader as ModStart drives it re-sends
   * the last chunk init counted (and retries a chunk whose answer it missed); the finished
   * result, the same each time, ends its upload instead of a retry that would start it over.
   */
  private async finishedChunk(
    owner: Owner,
    library: Library,
    chunk: ChunkOfFile,
    received: number,
    origin: string,
  ): Promise<ChunkResponse> {
    const config = await this.config();
    const { chunkSize } = config;
    const chunks = Math.ceil(chunk.size / chunkSize);
    const expected = chunk.index < chunks - 1 ? chunkSize : chunk.size - chunkSize * (chunks - 1);
    const blob =
      chunk.chunks === chunks && chunk.index < chunks && received === expected
        ? await this.repo.blobs.findOwnedBlob(
            owner,
            library,
            chunk.ext,
            chunk.md5,
            chunk.size,
            stripsIn(config, library, chunk.ext),
          )
        : undefined;
    const path = blob && (await this.repo.paths.ownedPathOf(owner, library, blob.id, chunk.ext));
    if (!path) throw new NoUploadInProgress(chunk);
    return {
      chunkUploaded: chunks,
      chunks,
      data: { filename: chunk.name, size: chunk.size },
      path,
      fullPath: origin + path,
    };
  }

  /**
   * The session and chunk index the fields name, checked, and whether the session holds that
   * chunk already: the chunk's one read. Throws the error to answer.
   */
  private async chunkTarget(owner: Owner, library: Library, fields: ChunkFields): Promise<Target> {
    const { name, ext } = checkFileName(fields.name);
    const md5 = checkMd5(fields.md5);
    const size = parseStrictInteger('size', fields.size);
    const chunks = parseStrictInteger('chunks', fields.chunks);
    const index = parseStrictInteger('chunk', fields.chunk);
    // An index past any integer column is refused below (chunks fit one); not asked about here.
    const asked = index <= int32Max ? index : -1;
    const found = await this.repo.sessions.findSessionHolding(
      { owner, library, md5, size, name },
      asked,
    );
    if (!found) {
      // Types and sizes were checked when the session was opened; without one, they are now.
      checkAllowed(await this.config(), library, ext, size);
      throw new NoUploadInProgress({ name, ext, md5, size, chunks, index });
    }
    const { holdsChunk, ...session } = found;
    if (chunks !== session.chunks)
      throw new ApiError(
        about(
          'chunks',
          message('files.chunkCountMismatch', { expected: session.chunks, got: chunks }),
        ),
      );
    if (index >= session.chunks) {
      throw new ApiError(
        about('chunk', message('files.chunkIndexRange', { last: session.chunks - 1, got: index })),
      );
    }
    return { session, index, expected: chunkLength(session, index), held: holdsChunk === 1 };
  }

  /**
   * Where a chunk's bytes can go while its request is still arriving (DESIGN 6: written at its
   * offset), for a chunk the fields name that is not held yet; undefined when the store cannot
   * write in pieces or the fields are wrong (the whole request is checked again when it is in).
   * The bytes count only once `chunk` has checked the whole chunk and recorded it.
   */
  async openChunkSink(
    owner: Owner,
    library: Library,
    fields: ChunkFields,
  ): Promise<FileSink | undefined> {
    if (!this.storage.openChunkWriter) return undefined;
    let claim: Claim | undefined;
    try {
      const { session, index, expected, held } = await this.chunkTarget(owner, library, fields);
      // A chunk another request holds is left to the buffered path, which waits for it.
      if (held || (await this.leases.finishingElsewhere(session))) return undefined;
      claim = await this.leases.claimChunk(session.id, index);
      if (!claim) return undefined;
      const writer = await this.storage.openChunkWriter(
        stagingOf(session),
        index,
        session.chunkSize,
      );
      return new ChunkSink(session, index, expected, writer, claim);
    } catch {
      // Any trouble here leaves the chunk to the buffered path, which reports it.
      await claim?.release();
      return undefined;
    }
  }

  /** Gives up the claim of a sink whose bytes will not be recorded (its form was refused). */
  async dropSink(sink: FileSink | undefined): Promise<void> {
    if (sink instanceof ChunkSink) await sink.release();
  }

  private async storeChunk(
    owner: Owner,
    library: Library,
    fields: ChunkFields,
    data: Buffer,
    origin: string,
    { written, transferable = false }: ChunkBody,
    handOver: () => Release,
  ): Promise<ChunkResponse> {
    // A sink opened for these very fields read the session already.
    const sink =
      written instanceof ChunkSink && sameChunk(written, owner, library, fields)
        ? written
        : undefined;
    let target: Target = sink
      ? { session: sink.session, index: sink.index, expected: sink.length, held: false }
      : await this.chunkTarget(owner, library, fields);
    const { index, expected } = target;
    if (data.length !== expected) {
      throw new ApiError(
        about('file', message('files.chunkLength', { index, expected, received: data.length })),
      );
    }
    // The content is checked on the first chunk already (issue 28), so a file that is not what
    // its extension says is refused before the rest of it is sent.
    const problem = index === 0 && !target.held && (await checkFirstChunk(target.session, data));
    if (problem) {
      await this.resetSession(target.session);
      throw contentRefusal(problem);
    }
    if (await this.leases.finishingElsewhere(target.session)) {
      await this.leases.waitWhileFinishing(target.session);
      // Finished meanwhile, the chunk gets the answer of a finished upload.
      target = await this.chunkTarget(owner, library, fields);
    }
    const { session } = target;
    let counts: ChunkCounts | undefined;
    if (!target.held) {
      // Bytes a sink already put in place while the request arrived are this very chunk's.
      const inPlace = sink !== undefined && sink.length === data.length;
      // One writer per chunk: a second send of it while the first is being written waits for
      // it (a sink already holds the claim for the bytes it put in place).
      const claim = inPlace ? sink.claim : await this.leases.claimChunkWaiting(session.id, index);
      if (claim) {
        // The chunk is written (unless in place) and hashed side by side, and its hash may run
        // on after the answer, while the client sends the next chunk.
        const recorded = this.recordChunk(session, index, data, claim, inPlace);
        if (!inPlace) void recorded.then(claim.release, claim.release);
        const stored = recorded.then(
          () => true,
          () => false,
        );
        // Written already, the buffer is read by the hash alone: hand it over when it may be.
        const before = this.hashes.add({
          session,
          index,
          data,
          stored,
          release: handOver(),
          handOver: inPlace && transferable,
        });
        counts = await recorded;
        // The earlier chunks' hashes done: hashing stays a chunk or two behind, memory bounded.
        await before;
      }
    }
    // Held already (sent again, or recorded by the request this one waited for).
    counts ??= await this.repo.sessions.touchSession(session.id, this.clock());
    if (!counts) throw retryUpload(message('files.noUploadInProgress'));
    if (counts.heldChunks === session.chunks) return this.finish(session, origin);
    return { chunkUploaded: counts.contiguousChunks, chunks: session.chunks };
  }

  /**
   * Writes a chunk to staging (unless a sink put it in place), durably, and records it as held
   * in the same transaction that gives up its claim, with the running MD5 folded so far: a claim
   * taken over meanwhile (this instance was seen dead) records nothing.
   */
  private async recordChunk(
    session: SessionRow,
    index: number,
    data: Buffer,
    claim: Claim,
    inPlace: boolean,
  ): Promise<ChunkCounts> {
    let receipt: ChunkReceipt = { index, size: data.length, etag: '' };
    if (!inPlace) {
      await this.leases.fence();
      try {
        receipt = await this.storage.writeChunk(stagingOf(session), index, session.chunkSize, data);
      } catch (error) {
        if (error instanceof StorageDamagedError) {
          throw new ApiError(message('files.chunkDamaged', { index }));
        }
        if (!(error instanceof StorageNotFoundError)) throw error;
        await this.resetSession(session);
        throw retryUpload(message('files.uploadExpired'));
      }
    }
    // On disk with the sync that runs behind the chunks (see `RunningHashes.written`).
    this.hashes.written(session, index);
    await this.leases.fence();
    const row = {
      sessionId: session.id,
      idx: index,
      size: receipt.size,
      etag: receipt.etag,
      instanceId: this.instances.id,
    };
    const save = this.hashes.takeSave(session.id);
    let counts: (ChunkCounts & { hashedChunks: number }) | undefined;
    try {
      counts = await this.repo.db
        .transaction()
        .execute((trx) =>
          uploadRecords(trx).chunks.recordClaimedChunk(row, claim.token, this.clock(), save),
        );
    } catch (error) {
      if (save) this.hashes.landed(session.id, save, undefined);
      throw error;
    }
    if (save)
      this.hashes.landed(session.id, save, counts ? counts.hashedChunks === save.to : undefined);
    if (counts) {
      claim.recorded();
      tapUploadChunk(receipt.size);
      return counts;
    }
    if (!(await this.repo.sessions.getSession(session.id)))
      throw retryUpload(message('files.noUploadInProgress'));
    throw new ApiError(message('files.chunkTakenOver'));
  }

  /**
   * Finishes an upload whose chunks are all held: verifies it, records the verified content
   * address, moves the bytes there and records the upload. Each step can be taken again: a finish
   * cut short by a crash is completed by the next try, on any instance, once the lease of the
   * dead one has lapsed.
   */
  private async finish(held: SessionRow, origin: string): Promise<ChunkResponse> {
    if (!(await this.leases.claimFinish(held.id)))
      throw new ApiError(message('files.beingFinished'));
    const session = (await this.repo.sessions.getSession(held.id)) ?? held;
    try {
      const verified = session.verifiedBlob
        ? { blob: session.verifiedBlob, form: await this.storedForm(session) }
        : await this.verify(session);
      const path = await this.blobs.store(session, verified.blob, verified.form);
      this.hashes.forget(session.id);
      return {
        chunkUploaded: session.chunks,
        chunks: session.chunks,
        data: { filename: session.name, size: session.size },
        path,
        fullPath: origin + path,
      };
    } catch (error) {
      if (error instanceof StorageNotFoundError) {
        await this.resetSession(session);
        throw retryUpload(message('files.uploadGone'));
      }
      if (error instanceof MalformedImage) {
        await this.resetSession(session);
        throw unreadableImage(error);
      }
      // Nothing when the session was dropped or the lease taken over.
      await this.leases.releaseFinish(session.id);
      throw error;
    }
  }

  /**
   * How the verified bytes of `session` are stored: without their privacy metadata when its
   * library strips its type (issue 17), read from staging and rewritten once, when first asked.
   */
  private async storedForm(session: SessionRow): Promise<StoredForm> {
    const stripped = stripsIn(await this.config(), session.library, session.ext) === true;
    if (!stripped) return { stripped, bytes: () => Promise.resolve(undefined) };
    let rewritten: Promise<Buffer | undefined> | undefined;
    const bytes = () =>
      (rewritten ??= (async () => {
        const staging = stagingOf(session);
        const sent = await readAll(await this.storage.readStaging(staging));
        const out = stripMetadata(sent, session.ext);
        return out === sent ? undefined : out;
      })());
    return { stripped, bytes };
  }

  /**
   * Assembles the chunks and checks the whole file: MD5 against the declared one (the running
   * hash continued over whatever was not folded yet), its content against its extension. The
   * bytes to store follow (an image without its privacy metadata, see `storedForm`). Records and
   * answers the blob they go to, a stored blob with the same bytes or a new one, and their form.
   */
  private async verify(session: SessionRow): Promise<{ blob: string; form: StoredForm }> {
    const staging = stagingOf(session);
    const receipts = (await this.repo.chunks.listChunks(session.id)).map(receiptOf);
    await this.storage.assemble(staging, receipts);
    await this.hashes.settle(session);
    const hashed = (await this.repo.sessions.getSession(session.id)) ?? session;
    const md5 = await this.hashes.digestFile(hashed, (from) =>
      this.storage.readStaging(staging, { start: from, end: session.size - 1 }),
    );
    if (md5 !== session.md5) {
      await this.resetSession(session);
      throw retryUpload(message('files.md5Mismatch'));
    }
    const problem = await checkStagedContent(session, staging, this.storage);
    if (problem) {
      await this.resetSession(session);
      throw contentRefusal(problem);
    }
    const form = await this.storedForm(session);
    let bytes: Buffer | undefined;
    try {
      bytes = await form.bytes();
    } catch (error) {
      if (!(error instanceof MalformedImage)) throw error;
      await this.resetSession(session);
      throw unreadableImage(error);
    }
    const blob = await this.blobs.nameFor(session, bytes);
    await this.leases.fence();
    if (!(await this.repo.sessions.saveVerified(session.id, this.instances.id, blob)))
      throw new LeaseLost();
    return { blob, form };
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
