import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type {
  ChunkFields,
  ChunkResponse,
  InitRequest,
  InitResponse,
  Library,
  UploadConfig,
} from '@atrium/shared/contract/files';
import { int32Max } from '@atrium/shared/contract/fields';
import { ApiError } from '../../http/envelope';
import {
  blobKey,
  StorageNotFoundError,
  thumbKey,
  type ChunkReceipt,
  type ChunkWriter,
  type StagingRef,
  type Storage,
} from '../../storage/index';
import type { FileSink } from './chunk-form';
import type { FilesDb, Owner, SessionRow } from '../files/files.tables';
import { checkBinaryContent, checkTextContent, isTextExtension } from './content-check';
import { Hasher } from './hasher';
import {
  blobPath,
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
import { UploadRepository, type SessionKey } from './upload.repository';

/** Sessions untouched and uploads unsaved for this long are swept (DESIGN 6). */
export const uploadTtlMs = 24 * 3_600_000;
/** A claim to finish an upload older than this is taken to belong to a crashed process. */
const finishLeaseMs = 5 * 60_000;
/** A claim to write a chunk older than this is taken to be left behind by a request that died. */
const chunkClaimMs = 2 * 60_000;
/** Width of library thumbnails. */
export const thumbWidth = 240;
/** Bytes re-read from storage are handed to the hash worker in pieces of about this size. */
const hashBatchBytes = 4 * 1024 * 1024;

export interface UploadServiceDeps {
  db: FilesDb;
  storage: Storage;
  settings?: SettingsReader | undefined;
  clock?: () => number;
  log?: { warn(obj: object, msg: string): void };
}

export interface SweepResult {
  sessions: number;
  uploads: number;
  blobs: number;
}

/** The hash worker's key for a session's running SHA-256. */
const hashKey = (session: SessionRow) => `session:${session.id}`;

function stagingOf(session: SessionRow): StagingRef {
  return { key: session.stagingKey, uploadId: session.stagingUploadId };
}

function receiptOf(row: { idx: number; size: number; etag: string }): ChunkReceipt {
  return { index: row.idx, size: row.size, etag: row.etag };
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

/** Gives a chunk's body buffer back to its owner; with the buffer when it was handed away. */
export type Release = (returned?: ArrayBuffer) => void;

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

/** A chunk's place in staging, written while the request arrives (see `openChunkSink`). */
class ChunkSink implements FileSink {
  constructor(
    readonly sessionId: number,
    readonly index: number,
    readonly length: number,
    private readonly writer: ChunkWriter,
    /** Gives up the claim on the chunk (idempotent). */
    readonly release: () => Promise<void>,
  ) {}

  write(data: Buffer, at: number): Promise<void> {
    if (at < 0 || at + data.length > this.length)
      return Promise.reject(new RangeError('write outside the chunk'));
    return this.writer.write(data, at);
  }

  async close(kept: boolean): Promise<void> {
    try {
      await this.writer.close();
    } catch (error) {
      await this.release();
      throw error;
    }
    // A kept sink holds the chunk until `chunk` has recorded it (or refused it).
    if (!kept) await this.release();
  }
}

/**
 * The chunked upload engine (DESIGN 6): sessions keyed by (owner, library, md5, size, name),
 * bounded chunk indexes with exact sizes, a running MD5 kept in the database so any instance can
 * continue it, verification at the end and content-addressed, reference-counted blobs.
 */
export class UploadService {
  readonly repo: UploadRepository;
  private readonly storage: Storage;
  private readonly settings: SettingsReader | undefined;
  private readonly clock: () => number;
  private readonly log: UploadServiceDeps['log'];
  private readonly hasher = new Hasher();
  /** Per session, the hashing still running behind the answers already sent (see `chunk`). */
  private readonly hashing = new Map<number, Promise<void>>();

  constructor(deps: UploadServiceDeps) {
    this.repo = new UploadRepository(deps.db);
    this.storage = deps.storage;
    this.settings = deps.settings;
    this.clock = deps.clock ?? Date.now;
    this.log = deps.log;
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
      throw new ApiError(`size: too large for chunks of ${chunkSize} bytes`);
    }
    const key: SessionKey = { owner, library, md5, size, name };

    const instant = await this.instantUpload(owner, library, name, ext, md5, size);
    if (instant) {
      const leftover = await this.repo.findSession(key);
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

    let session = await this.repo.findSession(key);
    if (session && session.chunkSize !== chunkSize) {
      // The admin changed the chunk size: chunk boundaries no longer line up, start over.
      await this.resetSession(session);
      session = undefined;
    }
    if (session) {
      const receipts = (await this.repo.listChunks(session.id)).map(receiptOf);
      const stored = await this.storage.storedChunks(stagingOf(session), chunkSize, receipts);
      if (stored.length !== receipts.length) {
        this.log?.warn(
          { sessionId: session.id },
          'upload staging lost chunks; starting the upload over',
        );
        await this.resetSession(session);
      } else {
        await this.repo.touchSession(session.id, this.clock());
        // With every chunk held but no result yet (a lost answer or a crash while finishing), the
        // client re-sends the last chunk, which finishes the upload.
        return { chunkUploaded: Math.min(contiguous(stored), chunks - 1), chunks, chunkSize };
      }
    }
    await this.openSession(key, ext, chunkSize, chunks);
    return { chunkUploaded: 0, chunks, chunkSize };
  }

  private async openSession(
    key: SessionKey,
    ext: string,
    chunkSize: number,
    chunks: number,
  ): Promise<void> {
    const staging = await this.storage.beginUpload();
    const now = this.clock();
    const id = await this.repo.insertSession({
      ownerType: key.owner.type,
      ownerId: key.owner.id,
      library: key.library,
      md5: key.md5,
      size: key.size,
      name: key.name,
      ext,
      chunkSize,
      chunks,
      stagingKey: staging.key,
      stagingUploadId: staging.uploadId,
      md5State: null,
      hashedChunks: 0,
      status: 'open',
      createdAt: now,
      updatedAt: now,
    });
    // Another request opened the same session first: keep theirs.
    if (id === undefined) await this.storage.abort(staging);
  }

  /** Gives the owner a new unsaved upload of content it already holds; its path, or undefined. */
  private async instantUpload(
    owner: Owner,
    library: Library,
    name: string,
    ext: string,
    md5: string,
    size: number,
  ): Promise<string | undefined> {
    const blob = await this.repo.findOwnedBlob(owner, library, ext, md5, size);
    if (!blob) return undefined;
    const path = blobPath(library, blob.sha256, ext);
    const taken = await this.repo.db.transaction().execute(async (trx) => {
      const repo = new UploadRepository(trx);
      if (!(await repo.addBlobRefs(blob.id, 1))) return false;
      await repo.insertUpload({
        ownerType: owner.type,
        ownerId: owner.id,
        library,
        blobId: blob.id,
        name,
        ext,
        path,
        createdAt: this.clock(),
      });
      return true;
    });
    return taken ? path : undefined;
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
    const { chunkSize } = await this.config();
    const chunks = Math.ceil(chunk.size / chunkSize);
    const expected =
      chunk.index < chunks - 1 ? chunkSize : chunk.size - chunkSize * (chunks - 1);
    const blob =
      chunk.chunks === chunks && chunk.index < chunks && received === expected
        ? await this.repo.findOwnedBlob(owner, library, chunk.ext, chunk.md5, chunk.size)
        : undefined;
    if (!blob) throw new NoUploadInProgress(chunk);
    const path = blobPath(library, blob.sha256, chunk.ext);
    return {
      chunkUploaded: chunks,
      chunks,
      data: { filename: chunk.name, size: chunk.size },
      path,
      fullPath: origin + path,
    };
  }

  /** The session and chunk index the fields name, checked; throws the error to answer. */
  private async chunkTarget(
    owner: Owner,
    library: Library,
    fields: ChunkFields,
  ): Promise<{ session: SessionRow; index: number; expected: number }> {
    const { name, ext } = checkFileName(fields.name);
    const md5 = checkMd5(fields.md5);
    const size = parseStrictInteger('size', fields.size);
    const chunks = parseStrictInteger('chunks', fields.chunks);
    const index = parseStrictInteger('chunk', fields.chunk);
    checkAllowed(await this.config(), library, ext, size);

    const session = await this.repo.findSession({ owner, library, md5, size, name });
    if (!session) throw new NoUploadInProgress({ name, ext, md5, size, chunks, index });
    if (chunks !== session.chunks)
      throw new ApiError(`chunks: this file has ${session.chunks} chunks, not ${chunks}`);
    if (index >= session.chunks) {
      throw new ApiError(
        `chunk: expected a whole number from 0 to ${session.chunks - 1}, got ${index}`,
      );
    }
    return { session, index, expected: chunkLength(session, index) };
  }

  private isFinishing(session: SessionRow, now: number): boolean {
    return session.status === 'finishing' && session.updatedAt >= now - finishLeaseMs;
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
    let target;
    try {
      target = await this.chunkTarget(owner, library, fields);
    } catch {
      return undefined;
    }
    const { session, index, expected } = target;
    if (this.isFinishing(session, this.clock())) return undefined;
    if (await this.repo.hasChunk(session.id, index)) return undefined;
    // Any trouble here leaves the chunk to the buffered path, which reports it.
    const claim = await this.claimChunk(session.id, index).catch(() => undefined);
    if (!claim) return undefined;
    try {
      const writer = await this.storage.openChunkWriter(
        stagingOf(session),
        index,
        session.chunkSize,
      );
      return new ChunkSink(session.id, index, expected, writer, claim);
    } catch {
      await claim();
      return undefined;
    }
  }

  /**
   * Claims a chunk for writing (in the database, so instances agree: one writer per chunk, or a
   * second send of it could land other bytes over those being hashed). The function that gives
   * it up, or undefined when another request holds it. A claim older than any request may take
   * was left behind by one that died, and is taken over.
   */
  private async claimChunk(
    sessionId: number,
    index: number,
  ): Promise<(() => Promise<void>) | undefined> {
    const token = randomUUID();
    const now = this.clock();
    let claimed: boolean;
    try {
      claimed = await this.repo.claimChunk(sessionId, index, token, now, now - chunkClaimMs);
    } catch (error) {
      // The session went away meanwhile (its claims go with it).
      if (!(await this.repo.getSession(sessionId)))
        throw retryUpload('No upload in progress for this file: start it with init');
      throw error;
    }
    if (!claimed) return undefined;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await this.repo.releaseChunkClaim(sessionId, index, token).catch((error: unknown) => {
        this.log?.warn({ err: error, sessionId }, 'could not give up an upload chunk claim');
      });
    };
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
    const { session, index, expected } = await this.chunkTarget(owner, library, fields);
    if (data.length !== expected) {
      throw new ApiError(
        `chunk ${index}: expected exactly ${expected} bytes, received ${data.length}`,
      );
    }
    const now = this.clock();
    if (this.isFinishing(session, now))
      throw new ApiError('This upload is being finished: try again in a moment');

    if (!(await this.repo.hasChunk(session.id, index))) {
      // Bytes a sink already put in place while the request arrived are this very chunk's.
      const inPlace =
        written instanceof ChunkSink &&
        written.sessionId === session.id &&
        written.index === index &&
        written.length === data.length;
      // The chunk is written (unless in place) and hashed side by side, and its hash may run on
      // after the answer, while the client sends the next chunk. Waiting for the previous chunk's
      // hash keeps the hashing at most one chunk behind, so memory stays bounded.
      // One writer per chunk: a second send of it while the first is being written is refused
      // (a sink already holds the claim for the bytes it put in place).
      const unclaim = inPlace ? undefined : await this.claimChunk(session.id, index);
      if (!inPlace && !unclaim) {
        throw new ApiError(
          'This chunk is being received by another request: send it again in a moment',
        );
      }
      const recorded = inPlace
        ? this.repo.addChunk({ sessionId: session.id, idx: index, size: data.length, etag: '' })
        : this.recordChunk(session, index, data);
      if (unclaim) void recorded.then(unclaim, unclaim);
      // Written already, the buffer is read by the hashes alone: hand it over when it may be.
      const previous = this.queueHash(
        session,
        index,
        data,
        recorded,
        handOver(),
        inPlace && transferable,
      );
      await recorded;
      await previous;
    }
    await this.repo.touchSession(session.id, now);

    const held = (await this.repo.listChunks(session.id)).map((row) => row.idx);
    if (held.length === session.chunks) {
      await this.hashing.get(session.id);
      return this.finish(session, origin);
    }
    return { chunkUploaded: contiguous(held), chunks: session.chunks };
  }

  /** Writes a chunk to staging and records it as held. */
  private async recordChunk(session: SessionRow, index: number, data: Buffer): Promise<void> {
    let receipt: ChunkReceipt;
    try {
      receipt = await this.storage.writeChunk(stagingOf(session), index, session.chunkSize, data);
    } catch (error) {
      if (!(error instanceof StorageNotFoundError)) throw error;
      await this.resetSession(session);
      throw retryUpload('The stored part of this upload has expired');
    }
    await this.repo.addChunk({
      sessionId: session.id,
      idx: index,
      size: receipt.size,
      etag: receipt.etag,
    });
  }

  /**
   * Queues the hash of a chunk behind the session's earlier ones and resolves when those are
   * done. `release` is called once both the hash and the write (`recorded`) no longer read `data`;
   * with `handOver`, the hash threads may take the buffer under `data` and give it back later.
   */
  private queueHash(
    session: SessionRow,
    index: number,
    data: Buffer,
    recorded: Promise<void>,
    release: Release,
    handOver: boolean,
  ): Promise<void> {
    const stored = recorded.then(
      () => true,
      () => false,
    );
    let handedTo: 'hash' | undefined;
    const giveBack = handOver
      ? {
          take: () => {
            handedTo = 'hash';
          },
          back: (buffers: ArrayBuffer[]) => release(buffers[0]),
        }
      : undefined;
    const previous = this.hashing.get(session.id) ?? Promise.resolve();
    const next = previous
      .then(() => this.advanceHash(session, index, data, stored, giveBack))
      .catch((error: unknown) => {
        // The verification at the end re-reads whatever was not hashed here.
        this.log?.warn({ err: error, sessionId: session.id }, 'running upload hash failed');
      })
      .finally(async () => {
        await stored;
        // A buffer handed to the hash threads is released when they give it back.
        if (handedTo === undefined) release();
        if (this.hashing.get(session.id) === next) this.hashing.delete(session.id);
      });
    this.hashing.set(session.id, next);
    return previous;
  }

  /**
   * Folds chunk `index` into the running hashes when it extends the hashed prefix, then any later
   * chunks already stored (read back where the store allows), and saves the MD5 state. The fold
   * runs while the chunk is being written; it counts only once the chunk is `stored`, so a chunk
   * whose write failed is hashed again when it is sent again.
   */
  private async advanceHash(
    session: SessionRow,
    index: number,
    data: Buffer,
    stored: Promise<boolean>,
    giveBack?: { take: () => void; back: (buffers: ArrayBuffer[]) => void },
  ): Promise<void> {
    const current = await this.repo.getSession(session.id);
    if (!current || current.hashedChunks !== index) return;
    const key = hashKey(current);
    giveBack?.take();
    let state = await this.hasher.fold(
      key,
      index * current.chunkSize,
      index > 0 ? current.md5State : null,
      [data],
      giveBack?.back,
    );
    if (!(await stored)) {
      await this.hasher.drop(key);
      return;
    }
    let hashed = index + 1;
    if (hashed < current.chunks) {
      const later = new Map((await this.repo.listChunks(current.id)).map((row) => [row.idx, row]));
      for (let row = later.get(hashed); row; row = later.get(hashed)) {
        const bytes = await this.storage.readChunk(
          stagingOf(current),
          receiptOf(row),
          current.chunkSize,
        );
        if (!bytes) break;
        state = await this.hasher.fold(key, hashed * current.chunkSize, state, [bytes]);
        hashed += 1;
      }
    }
    if (!(await this.repo.saveHashState(current.id, current.hashedChunks, hashed, state)))
      await this.hasher.drop(key);
  }

  /** Streams the staging object from byte `from` through the hash worker; the final MD5 state. */
  private async foldStaging(
    session: SessionRow,
    key: string,
    from: number,
    state: string | null,
  ): Promise<string | null> {
    if (from >= session.size) return state;
    const stream = await this.storage.readStaging(stagingOf(session), {
      start: from,
      end: session.size - 1,
    });
    let offset = from;
    let batch: Buffer[] = [];
    let batched = 0;
    const flush = async () => {
      const piece = Buffer.concat(batch, batched);
      state = await this.hasher.fold(key, offset, state, [piece]);
      offset += batched;
      batch = [];
      batched = 0;
    };
    for await (const part of stream as AsyncIterable<Buffer>) {
      batch.push(part);
      batched += part.length;
      if (batched >= hashBatchBytes) await flush();
    }
    if (batched > 0) await flush();
    if (offset !== session.size) throw new StorageNotFoundError(session.stagingKey);
    return state;
  }

  private async finish(claimed: SessionRow, origin: string): Promise<ChunkResponse> {
    const now = this.clock();
    if (!(await this.repo.claimFinish(claimed, now, now - finishLeaseMs))) {
      throw new ApiError('This upload is being finished: try again in a moment');
    }
    const session = (await this.repo.getSession(claimed.id)) ?? claimed;
    const staging = stagingOf(session);
    let verified: { sha256: string };
    try {
      const receipts = (await this.repo.listChunks(session.id)).map(receiptOf);
      await this.storage.assemble(staging, receipts);
      verified = await this.verify(session);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (error instanceof StorageNotFoundError) {
        await this.resetSession(session);
        throw retryUpload('The stored part of this upload is gone');
      }
      await this.repo.releaseFinish(session.id, this.clock());
      throw error;
    }
    const path = await this.storeBlob(session, verified.sha256);
    return {
      chunkUploaded: session.chunks,
      chunks: session.chunks,
      data: { filename: session.name, size: session.size },
      path,
      fullPath: origin + path,
    };
  }

  /** Whole-file MD5 against the declared one, SHA-256 for the content address, and a content check. */
  private async verify(session: SessionRow): Promise<{ sha256: string }> {
    const key = hashKey(session);
    const hashedBytes = session.hashedChunks * session.chunkSize;
    const state = await this.foldStaging(
      session,
      key,
      hashedBytes,
      session.hashedChunks > 0 ? session.md5State : null,
    );
    const digest = await this.hasher.digest(key, session.size, state);
    if (digest.md5 !== session.md5) {
      await this.resetSession(session);
      throw retryUpload("The file's MD5 does not match the one declared at init");
    }
    const problem = await this.checkContent(session, stagingOf(session));
    if (problem) {
      await this.resetSession(session);
      throw retryUpload(`The file does not match its extension: ${problem}`);
    }
    if (digest.sha256) return { sha256: digest.sha256 };
    // This process did not see the whole upload (a restart, another instance): hash it all again.
    const checkKey = `check:${session.id}`;
    const full = await this.hasher.digest(
      checkKey,
      session.size,
      await this.foldStaging(session, checkKey, 0, null),
    );
    if (!full.sha256) throw new Error(`no SHA-256 for upload session ${session.id}`);
    return { sha256: full.sha256 };
  }

  private async checkContent(
    session: SessionRow,
    staging: StagingRef,
  ): Promise<string | undefined> {
    const read = (): Promise<Readable> =>
      this.storage.readStaging(staging, { start: 0, end: session.size - 1 });
    if (isTextExtension(session.ext))
      return checkTextContent(session.ext, session.size, await read());
    return checkBinaryContent(session.ext, await read());
  }

  /** Files the verified bytes under their content address and records the unsaved upload. */
  private async storeBlob(session: SessionRow, sha256: string): Promise<string> {
    const staging = stagingOf(session);
    const owner: Owner = { type: session.ownerType, id: session.ownerId };
    const path = blobPath(session.library, sha256, session.ext);
    const upload = {
      ownerType: owner.type,
      ownerId: owner.id,
      library: session.library,
      name: session.name,
      ext: session.ext,
      path,
      createdAt: this.clock(),
    };
    const existing = await this.repo.findBlobBySha(sha256);
    if (existing) {
      const shared = await this.repo.db.transaction().execute(async (trx) => {
        const repo = new UploadRepository(trx);
        if (!(await repo.addBlobRefs(existing.id, 1))) return false;
        await repo.insertUpload({ ...upload, blobId: existing.id });
        await repo.deleteSession(session.id);
        return true;
      });
      if (shared) {
        await this.storage.abort(staging);
        return path;
      }
    }
    const key = blobKey(sha256);
    await this.storage.promote(staging, key);
    await this.repo.db.transaction().execute(async (trx) => {
      const repo = new UploadRepository(trx);
      const blob = await repo.upsertBlob({
        sha256,
        md5: session.md5,
        size: session.size,
        storageKey: key,
        createdAt: this.clock(),
      });
      await repo.insertUpload({ ...upload, blobId: blob.id });
      await repo.deleteSession(session.id);
    });
    return path;
  }

  /** Drops a session and its bytes; the next init starts from chunk 0. */
  private async resetSession(session: SessionRow): Promise<void> {
    await this.hasher.drop(hashKey(session));
    await this.repo.deleteSession(session.id);
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
  async collectBlob(blobId: number): Promise<void> {
    const blob = await this.repo.getBlob(blobId);
    if (!blob || blob.refCount > 0) return;
    if (!(await this.repo.deleteBlobIfUnreferenced(blob.id))) return;
    await this.storage.delete(blob.storageKey);
    await this.storage.delete(thumbKey(blob.sha256, thumbWidth));
  }

  /** Frees abandoned sessions, unsaved uploads older than 24 h and blobs nothing points at. */
  async sweep(now: number = this.clock()): Promise<SweepResult> {
    const before = now - uploadTtlMs;
    const result: SweepResult = { sessions: 0, uploads: 0, blobs: 0 };
    for (
      let batch = await this.repo.expiredSessions(before, 100);
      batch.length > 0;
      batch = await this.repo.expiredSessions(before, 100)
    ) {
      for (const session of batch) {
        await this.resetSession(session);
        result.sessions += 1;
      }
    }
    for (
      let batch = await this.repo.expiredUploads(before, 100);
      batch.length > 0;
      batch = await this.repo.expiredUploads(before, 100)
    ) {
      for (const upload of batch) {
        await this.repo.db.transaction().execute(async (trx) => {
          const repo = new UploadRepository(trx);
          await repo.deleteUploads([upload.id]);
          await repo.dropBlobRefs(upload.blobId, 1);
        });
        result.uploads += 1;
      }
    }
    for (
      let batch = await this.repo.unreferencedBlobs(100);
      batch.length > 0;
      batch = await this.repo.unreferencedBlobs(100)
    ) {
      for (const blob of batch) {
        await this.collectBlob(blob.id);
        result.blobs += 1;
      }
    }
    return result;
  }

  /**
   * Drops the chunk claims of requests that were running when the server last stopped, so their
   * chunks can be sent again at once (called at start-up; a claim is otherwise only taken over
   * after two minutes).
   */
  dropLeftoverClaims(): Promise<number> {
    return this.repo.dropChunkClaims();
  }

  /** Stops the hash worker. */
  close(): Promise<void> {
    return this.hasher.close();
  }

  /** Runs `sweep` every `intervalMs` until the returned function is called. */
  startSweeper(intervalMs: number): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.sweep()
        .catch((error: unknown) => this.log?.warn({ err: error }, 'upload sweep failed'))
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
