import type { ChunkFields, ChunkResponse, Library } from '@atrium/shared/contract/files';
import { int32Max } from '@atrium/shared/contract/fields';
import { ApiError, message } from '../../../http/envelope';
import { tapUploadChunk } from '../../../ops/taps';
import {
  StorageDamagedError,
  StorageNotFoundError,
  type ChunkReceipt,
} from '../../../storage/index';
import type { Owner, SessionRow } from '../library.tables';
import type { FileSink } from './chunk-form';
import { checkFirstChunk, contentRefusal } from './content-check';
import type { Release } from './hash-lane';
import { stagingOf } from './staging';
import { ChunkSink, type Claim } from './upload-leases';
import type { UploadFinisher } from './upload-finisher';
import type { UploadParts } from './upload-parts';
import { uploadRecords } from './upload-records';
import {
  about,
  checkAllowed,
  checkFileName,
  checkMd5,
  NoUploadInProgress,
  parseStrictInteger,
  retryUpload,
  stripsIn,
  type ChunkOfFile,
} from './upload-rules';

function chunkLength(session: SessionRow, index: number): number {
  return index < session.chunks - 1
    ? session.chunkSize
    : session.size - session.chunkSize * (session.chunks - 1);
}

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
 * Receiving chunks (DESIGN 6): each checked against its session, written to staging (at its
 * offset while it arrives when the store can), hashed side by side and recorded; the last one
 * hands the upload to `UploadFinisher`. One writer per chunk is agreed in `UploadLeases`.
 */
export class ChunkIntake {
  constructor(
    private readonly parts: UploadParts,
    private readonly finisher: UploadFinisher,
  ) {}

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
    const config = await this.parts.config();
    const { chunkSize } = config;
    const chunks = Math.ceil(chunk.size / chunkSize);
    const expected = chunk.index < chunks - 1 ? chunkSize : chunk.size - chunkSize * (chunks - 1);
    const blob =
      chunk.chunks === chunks && chunk.index < chunks && received === expected
        ? await this.parts.repo.blobs.findOwnedBlob(
            owner,
            library,
            chunk.ext,
            chunk.md5,
            chunk.size,
            stripsIn(config, library, chunk.ext),
          )
        : undefined;
    const path =
      blob && (await this.parts.repo.paths.ownedPathOf(owner, library, blob.id, chunk.ext));
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
    const found = await this.parts.repo.sessions.findSessionHolding(
      { owner, library, md5, size, name },
      asked,
    );
    if (!found) {
      // Types and sizes were checked when the session was opened; without one, they are now.
      checkAllowed(await this.parts.config(), library, ext, size);
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
    if (!this.parts.storage.openChunkWriter) return undefined;
    let claim: Claim | undefined;
    try {
      const { session, index, expected, held } = await this.chunkTarget(owner, library, fields);
      // A chunk another request holds is left to the buffered path, which waits for it.
      if (held || (await this.parts.leases.finishingElsewhere(session))) return undefined;
      claim = await this.parts.leases.claimChunk(session.id, index);
      if (!claim) return undefined;
      const writer = await this.parts.storage.openChunkWriter(
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
      await this.parts.resetSession(target.session);
      throw contentRefusal(problem);
    }
    if (await this.parts.leases.finishingElsewhere(target.session)) {
      await this.parts.leases.waitWhileFinishing(target.session);
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
      const claim = inPlace
        ? sink.claim
        : await this.parts.leases.claimChunkWaiting(session.id, index);
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
        const before = this.parts.hashes.add({
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
    counts ??= await this.parts.repo.sessions.touchSession(session.id, this.parts.clock());
    if (!counts) throw retryUpload(message('files.noUploadInProgress'));
    if (counts.heldChunks === session.chunks) return this.finisher.finish(session, origin);
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
      await this.parts.leases.fence();
      try {
        receipt = await this.parts.storage.writeChunk(
          stagingOf(session),
          index,
          session.chunkSize,
          data,
        );
      } catch (error) {
        if (error instanceof StorageDamagedError) {
          throw new ApiError(message('files.chunkDamaged', { index }));
        }
        if (!(error instanceof StorageNotFoundError)) throw error;
        await this.parts.resetSession(session);
        throw retryUpload(message('files.uploadExpired'));
      }
    }
    // On disk with the sync that runs behind the chunks (see `RunningHashes.written`).
    this.parts.hashes.written(session, index);
    await this.parts.leases.fence();
    const row = {
      sessionId: session.id,
      idx: index,
      size: receipt.size,
      etag: receipt.etag,
      instanceId: this.parts.instances.id,
    };
    const save = this.parts.hashes.takeSave(session.id);
    let counts: (ChunkCounts & { hashedChunks: number }) | undefined;
    try {
      counts = await this.parts.repo.db
        .transaction()
        .execute((trx) =>
          uploadRecords(trx).chunks.recordClaimedChunk(row, claim.token, this.parts.clock(), save),
        );
    } catch (error) {
      if (save) this.parts.hashes.landed(session.id, save, undefined);
      throw error;
    }
    if (save)
      this.parts.hashes.landed(
        session.id,
        save,
        counts ? counts.hashedChunks === save.to : undefined,
      );
    if (counts) {
      claim.recorded();
      tapUploadChunk(receipt.size);
      return counts;
    }
    if (!(await this.parts.repo.sessions.getSession(session.id)))
      throw retryUpload(message('files.noUploadInProgress'));
    throw new ApiError(message('files.chunkTakenOver'));
  }
}
