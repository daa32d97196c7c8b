import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
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
import type { Instances } from '../../instances/instances';
import {
  blobKey,
  StorageNotFoundError,
  thumbKey,
  type ChunkReceipt,
  type ChunkWriter,
  type ListedObject,
  type StagingRef,
  type Storage,
} from '../../storage/index';
import type { FileSink } from './chunk-form';
import type { FilesDb, Owner, SessionRow } from '../../db/files.tables';
import { checkBinaryContent, checkTextContent, isTextExtension } from './content-check';
import { receiptOf, RunningHashes, stagingOf, type Release } from './running-hash';
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
/**
 * Stored objects no row refers to are deleted once this old: younger ones may belong to an upload
 * between writing its bytes and recording them (a staging file before its session row).
 */
export const orphanGraceMs = 3_600_000;
/**
 * Chunk claims and finish leases are held while their instance lives (issue 13). These bounds are
 * for a release lost to a database error in an instance that lives on: longer than any request
 * may take (the server ends a request after 5 minutes) and any finish.
 */
const chunkClaimMs = 10 * 60_000;
const finishLeaseMs = 30 * 60_000;
/** Width of library thumbnails. */
export const thumbWidth = 240;
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
  log?: { warn(obj: object, msg: string): void };
}

export interface SweepResult {
  sessions: number;
  uploads: number;
  blobs: number;
  /** Stored objects no row referred to (left by crashes). */
  orphans: number;
}

/** A chunk claimed for writing by one request. */
interface Claim {
  token: string;
  /** Gives the claim up (idempotent). */
  release(): Promise<void>;
  /** Recording the chunk gave the claim up. */
  recorded(): void;
}

/** The content address in a blob or thumbnail key (see `blobKey`, `thumbKey`). */
function shaOfKey(key: string): string | undefined {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const sha = name.slice(0, 64);
  return /^[0-9a-f]{64}$/.test(sha) ? sha : undefined;
}

/** Thrown inside a transaction that must not commit: the finish lease went to another instance. */
class LeaseLost extends ApiError {
  constructor() {
    super('This upload is being finished: try again in a moment');
  }
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
    readonly claim: Claim,
  ) {}

  /** Gives up the claim on the chunk (idempotent). */
  release(): Promise<void> {
    return this.claim.release();
  }

  write(data: Buffer, at: number): Promise<void> {
    if (at < 0 || at + data.length > this.length)
      return Promise.reject(new RangeError('write outside the chunk'));
    return this.writer.write(data, at);
  }

  async close(kept: boolean): Promise<void> {
    try {
      // Kept bytes are about to be recorded: durable first.
      await this.writer.close(kept);
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
 * bounded chunk indexes with exact sizes, running MD5 and SHA-256 kept in the database so any
 * instance can continue them, verification at the end and content-addressed, reference-counted
 * blobs. Any instance takes any chunk (DESIGN 2): a chunk claim or finish lease names the instance
 * holding it and lapses a few seconds after that instance stops beating.
 */
export class UploadService {
  readonly repo: UploadRepository;
  private readonly storage: Storage;
  private readonly instances: Instances;
  private readonly settings: SettingsReader | undefined;
  private readonly clock: () => number;
  private readonly log: UploadServiceDeps['log'];
  private readonly hashes: RunningHashes;
  /**
   * How long a request waits for a chunk or finish another request holds: long enough for a
   * crashed holder to be seen dead, so the resend after a crash is taken instead of refused
   * (neither WebUploader nor our button retries a refusal).
   */
  private readonly takeoverWaitMs: number;
  private readonly pollMs: number;

  constructor(deps: UploadServiceDeps) {
    this.repo = new UploadRepository(deps.db);
    this.storage = deps.storage;
    this.instances = deps.instances;
    this.settings = deps.settings;
    this.clock = deps.clock ?? Date.now;
    this.log = deps.log;
    const { heartbeatMs, deadAfterMs } = deps.instances.timing;
    this.takeoverWaitMs = deadAfterMs + 2 * heartbeatMs;
    this.pollMs = Math.max(5, Math.round(heartbeatMs / 5));
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
    if (session?.verifiedSha256) {
      // Verified by a finish cut short (its bytes may be on their way to the content address
      // already, out of staging): the last chunk, sent again, completes it.
      await this.repo.touchSession(session.id, this.clock());
      return { chunkUploaded: chunks - 1, chunks, chunkSize };
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
      sha256State: null,
      hashedChunks: 0,
      status: 'open',
      instanceId: null,
      verifiedSha256: null,
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
    const expected = chunk.index < chunks - 1 ? chunkSize : chunk.size - chunkSize * (chunks - 1);
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

  /**
   * Whether a live instance holds the lease to finish the session (this one included: another
   * request of it may be finishing).
   */
  private async finishingElsewhere(session: SessionRow): Promise<boolean> {
    if (session.status !== 'finishing' || session.instanceId === null) return false;
    if (session.updatedAt < this.clock() - finishLeaseMs) return false;
    return this.instances.isAlive(session.instanceId);
  }

  /**
   * Waits while a live instance finishes the session (or until it is gone), up to the take-over
   * wait: a crashed holder is seen dead within it.
   */
  private async waitWhileFinishing(session: SessionRow): Promise<void> {
    const deadline = performance.now() + this.takeoverWaitMs;
    let current: SessionRow | undefined = session;
    while (current && (await this.finishingElsewhere(current))) {
      if (performance.now() >= deadline)
        throw new ApiError('This upload is being finished: try again in a moment');
      await sleep(this.pollMs);
      current = await this.repo.getSession(session.id);
    }
  }

  /**
   * An instance whose heartbeat has gone stale may already have lost what it holds to others: it
   * beats again before it records anything, and refuses if it cannot. (What it records is fenced
   * by its claim or lease as well, which another instance's take-over replaces.)
   */
  private async fence(): Promise<void> {
    if (this.instances.holdsOn()) return;
    await this.instances.beat();
    if (!this.instances.holdsOn())
      throw new ApiError('This server lost touch with the database: send the chunk again');
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
      const { session, index, expected } = await this.chunkTarget(owner, library, fields);
      // A chunk another request holds is left to the buffered path, which waits for it.
      if (await this.finishingElsewhere(session)) return undefined;
      if (await this.repo.hasChunk(session.id, index)) return undefined;
      claim = await this.claimChunk(session.id, index);
      if (!claim) return undefined;
      const writer = await this.storage.openChunkWriter(
        stagingOf(session),
        index,
        session.chunkSize,
      );
      return new ChunkSink(session.id, index, expected, writer, claim);
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

  /**
   * Claims a chunk for writing (in the database, so instances agree: one writer per chunk, or a
   * second send of it could land other bytes over those being hashed); undefined when another
   * request holds it. The claim names this instance and lapses once it is dead.
   */
  private async claimChunk(sessionId: number, index: number): Promise<Claim | undefined> {
    const token = randomUUID();
    const now = this.clock();
    let claimed: boolean;
    try {
      claimed = await this.repo.claimChunk(
        sessionId,
        index,
        { token, instanceId: this.instances.id },
        now,
        this.instances.aliveSince(),
        now - chunkClaimMs,
      );
    } catch (error) {
      // The session went away meanwhile (its claims go with it).
      if (!(await this.repo.getSession(sessionId)))
        throw retryUpload('No upload in progress for this file: start it with init');
      throw error;
    }
    if (!claimed) return undefined;
    let released = false;
    return {
      token,
      release: async () => {
        if (released) return;
        released = true;
        await this.repo.releaseChunkClaim(sessionId, index, token).catch((error: unknown) => {
          this.log?.warn({ err: error, sessionId }, 'could not give up an upload chunk claim');
        });
      },
      recorded: () => {
        released = true;
      },
    };
  }

  /**
   * Claims a chunk, waiting while another request holds it, up to the take-over wait: a claim of
   * a crashed instance lapses within it. Undefined when the holder recorded the chunk meanwhile.
   */
  private async claimChunkWaiting(sessionId: number, index: number): Promise<Claim | undefined> {
    const deadline = performance.now() + this.takeoverWaitMs;
    for (;;) {
      const claim = await this.claimChunk(sessionId, index);
      if (claim) return claim;
      if (await this.repo.hasChunk(sessionId, index)) return undefined;
      if (performance.now() >= deadline) {
        throw new ApiError(
          'This chunk is being received by another request: send it again in a moment',
        );
      }
      await sleep(this.pollMs);
    }
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
    let target = await this.chunkTarget(owner, library, fields);
    const { index, expected } = target;
    if (data.length !== expected) {
      throw new ApiError(
        `chunk ${index}: expected exactly ${expected} bytes, received ${data.length}`,
      );
    }
    if (await this.finishingElsewhere(target.session)) {
      await this.waitWhileFinishing(target.session);
      // Finished meanwhile, the chunk gets the answer of a finished upload.
      target = await this.chunkTarget(owner, library, fields);
    }
    const { session } = target;
    const now = this.clock();

    if (!(await this.repo.hasChunk(session.id, index))) {
      // Bytes a sink already put in place while the request arrived are this very chunk's.
      const inPlace =
        written instanceof ChunkSink &&
        written.sessionId === session.id &&
        written.index === index &&
        written.length === data.length;
      // One writer per chunk: a second send of it while the first is being written waits for it
      // (a sink already holds the claim for the bytes it put in place).
      const claim = inPlace ? written.claim : await this.claimChunkWaiting(session.id, index);
      if (claim) {
        // The chunk is written (unless in place) and hashed side by side, and its hash may run on
        // after the answer, while the client sends the next chunk.
        const recorded = this.recordChunk(session, index, data, claim, inPlace);
        if (!inPlace) void recorded.then(claim.release, claim.release);
        const stored = recorded.then(
          () => true,
          () => false,
        );
        // Written already, the buffer is read by the hashes alone: hand it over when it may be.
        const before = this.hashes.add({
          session,
          index,
          data,
          stored,
          release: handOver(),
          handOver: inPlace && transferable,
        });
        await recorded;
        // The earlier chunks' hashes done: hashing stays about a chunk behind, memory bounded.
        await before;
      }
    }
    await this.repo.touchSession(session.id, now);

    const held = (await this.repo.listChunks(session.id)).map((row) => row.idx);
    if (held.length === session.chunks) return this.finish(session, origin);
    return { chunkUploaded: contiguous(held), chunks: session.chunks };
  }

  /**
   * Writes a chunk to staging (unless a sink put it in place), durably, and records it as held
   * in the same transaction that gives up its claim: a claim taken over meanwhile (this instance
   * was seen dead) records nothing.
   */
  private async recordChunk(
    session: SessionRow,
    index: number,
    data: Buffer,
    claim: Claim,
    inPlace: boolean,
  ): Promise<void> {
    let receipt: ChunkReceipt = { index, size: data.length, etag: '' };
    if (!inPlace) {
      await this.fence();
      try {
        receipt = await this.storage.writeChunk(stagingOf(session), index, session.chunkSize, data);
      } catch (error) {
        if (!(error instanceof StorageNotFoundError)) throw error;
        await this.resetSession(session);
        throw retryUpload('The stored part of this upload has expired');
      }
    }
    await this.fence();
    const row = {
      sessionId: session.id,
      idx: index,
      size: receipt.size,
      etag: receipt.etag,
      instanceId: this.instances.id,
    };
    const recorded = await this.repo.db
      .transaction()
      .execute((trx) => new UploadRepository(trx).recordClaimedChunk(row, claim.token));
    if (recorded) {
      claim.recorded();
      return;
    }
    if (!(await this.repo.getSession(session.id)))
      throw retryUpload('No upload in progress for this file: start it with init');
    throw new ApiError('This chunk was taken over by another request: send it again in a moment');
  }

  /**
   * Finishes an upload whose chunks are all held: verifies it, records the verified content
   * address, moves the bytes there and records the upload. Each step can be taken again: a finish
   * cut short by a crash is completed by the next try, on any instance, once the lease of the
   * dead one has lapsed.
   */
  private async finish(held: SessionRow, origin: string): Promise<ChunkResponse> {
    const me = this.instances.id;
    const now = this.clock();
    const leased = await this.repo.claimFinish(
      held.id,
      me,
      now,
      this.instances.aliveSince(),
      now - finishLeaseMs,
    );
    if (!leased) throw new ApiError('This upload is being finished: try again in a moment');
    const session = (await this.repo.getSession(held.id)) ?? held;
    try {
      const sha256 = session.verifiedSha256 ?? (await this.verify(session));
      const path = await this.storeBlob(session, sha256);
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
        throw retryUpload('The stored part of this upload is gone');
      }
      // Nothing when the session was dropped or the lease taken over.
      await this.repo.releaseFinish(session.id, me, this.clock()).catch((failure: unknown) => {
        this.log?.warn({ err: failure, sessionId: session.id }, 'could not give up a finish lease');
      });
      throw error;
    }
  }

  /**
   * Assembles the chunks and checks the whole file: MD5 against the declared one (the running
   * hashes continued over whatever was not folded yet), its content against its extension. Records
   * and answers the SHA-256, the content address.
   */
  private async verify(session: SessionRow): Promise<string> {
    const staging = stagingOf(session);
    const receipts = (await this.repo.listChunks(session.id)).map(receiptOf);
    await this.storage.assemble(staging, receipts);
    await this.hashes.settle(session);
    const hashed = (await this.repo.getSession(session.id)) ?? session;
    const digest = await this.hashes.digestFile(hashed, (from) =>
      this.storage.readStaging(staging, { start: from, end: session.size - 1 }),
    );
    if (digest.md5 !== session.md5) {
      await this.resetSession(session);
      throw retryUpload("The file's MD5 does not match the one declared at init");
    }
    const problem = await this.checkContent(session, staging);
    if (problem) {
      await this.resetSession(session);
      throw retryUpload(`The file does not match its extension: ${problem}`);
    }
    await this.fence();
    if (!(await this.repo.saveVerified(session.id, this.instances.id, digest.sha256)))
      throw new LeaseLost();
    return digest.sha256;
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

  /**
   * Files the verified bytes under their content address and records the unsaved upload, with
   * the session's deletion, only while this instance holds the finish lease.
   */
  private async storeBlob(session: SessionRow, sha256: string): Promise<string> {
    const me = this.instances.id;
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
      await this.fence();
      const shared = await this.repo.db.transaction().execute(async (trx) => {
        const repo = new UploadRepository(trx);
        if (!(await repo.addBlobRefs(existing.id, 1))) return false;
        await repo.insertUpload({ ...upload, blobId: existing.id });
        if (!(await repo.deleteFinishedSession(session.id, me))) throw new LeaseLost();
        return true;
      });
      if (shared) {
        // Left behind if this fails or the process dies here: the orphan sweep frees it.
        await this.storage.abort(staging).catch((error: unknown) => {
          this.log?.warn({ err: error, sessionId: session.id }, 'could not free upload staging');
        });
        return path;
      }
    }
    const key = blobKey(sha256);
    await this.storage.promote(staging, key);
    await this.fence();
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
      if (!(await repo.deleteFinishedSession(session.id, me))) throw new LeaseLost();
    });
    return path;
  }

  /** Drops a session and its bytes; the next init starts from chunk 0. */
  private async resetSession(session: SessionRow): Promise<void> {
    this.hashes.forget(session.id);
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

  /**
   * Frees abandoned sessions, unsaved uploads older than 24 h, blobs nothing points at, and stored
   * objects no row refers to (left by a crash between writing bytes and recording them).
   */
  async sweep(now: number = this.clock()): Promise<SweepResult> {
    const before = now - uploadTtlMs;
    const result: SweepResult = { sessions: 0, uploads: 0, blobs: 0, orphans: 0 };
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
    result.orphans = await this.sweepOrphans(now - orphanGraceMs);
    return result;
  }

  /** Deletes stored objects written before `before` that no row refers to; how many. */
  private async sweepOrphans(before: number): Promise<number> {
    let deleted = 0;
    const old = (page: ListedObject[]) => page.filter((object) => object.modifiedAt < before);
    for await (const page of this.storage.list('staging')) {
      for (const object of old(page)) {
        // Asked one at a time, right before deleting: a session may have been opened since.
        if ((await this.repo.stagingInUse([object.key])).size > 0) continue;
        await this.storage.abort({ key: object.key, uploadId: object.uploadId ?? null });
        deleted += 1;
      }
    }
    for (const area of ['blobs', 'thumbs'] as const) {
      for await (const page of this.storage.list(area)) {
        const candidates = old(page);
        const inUse = await this.repo.shasInUse([
          ...new Set(candidates.flatMap((object) => shaOfKey(object.key) ?? [])),
        ]);
        for (const object of candidates) {
          const sha = shaOfKey(object.key);
          // A thumbnail's temporary file is never kept this long; anything else unknown is kept.
          const leftover = object.key.endsWith('.tmp');
          if (!leftover && (!sha || inUse.has(sha))) continue;
          if (!leftover && sha && (await this.repo.shasInUse([sha])).size > 0) continue;
          await this.storage.delete(object.key);
          deleted += 1;
        }
      }
    }
    return deleted;
  }

  /** Stops the hash workers. */
  close(): Promise<void> {
    return this.hashes.close();
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
