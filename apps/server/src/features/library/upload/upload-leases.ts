import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, message } from '../../../http/envelope';
import type { Instances } from '../../../instances/instances';
import type { ChunkWriter } from '../../../storage/index';
import type { SessionRow } from '../library.tables';
import type { FileSink } from './chunk-form';
import { retryUpload } from './upload-rules';
import type { UploadRecords } from './upload-records';

/**
 * Chunk claims and finish leases are held while their instance lives (DESIGN 2). These bounds are
 * for a release lost to a database error in an instance that lives on: longer than any request
 * may take (the server ends a request after 5 minutes) and any finish.
 */
const chunkClaimMs = 10 * 60_000;
const finishLeaseMs = 30 * 60_000;

export interface Log {
  warn(obj: object, msg: string): void;
}

/** A chunk claimed for writing by one request. */
export interface Claim {
  token: string;
  /** Gives the claim up (idempotent). */
  release(): Promise<void>;
  /** Recording the chunk gave the claim up. */
  recorded(): void;
}

/** Thrown inside a transaction that must not commit: the finish lease went to another instance. */
export class LeaseLost extends ApiError {
  constructor() {
    super(message('files.beingFinished'));
  }
}

/** A chunk's place in staging, written while the request arrives (see `openChunkSink`). */
export class ChunkSink implements FileSink {
  constructor(
    /** The session as it was read when the sink was opened (the chunk's one read). */
    readonly session: SessionRow,
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
      // Kept bytes are about to be recorded (on disk with the sync behind the chunks).
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
 * Who may write a chunk and who may finish an upload, agreed in the database so instances agree
 * (DESIGN 2): a chunk claim or finish lease names the instance holding it and lapses a few seconds
 * after that instance stops beating.
 */
export class UploadLeases {
  /**
   * How long a request waits for a chunk or finish another request holds: long enough for a
   * crashed holder to be seen dead, so the resend after a crash is taken instead of refused
   * (neither WebUploader nor our button retries a refusal).
   */
  private readonly takeoverWaitMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly repo: UploadRecords,
    private readonly instances: Instances,
    private readonly clock: () => number,
    private readonly log: Log | undefined,
  ) {
    const { heartbeatMs, deadAfterMs } = instances.timing;
    this.takeoverWaitMs = deadAfterMs + 2 * heartbeatMs;
    this.pollMs = Math.max(5, Math.round(heartbeatMs / 5));
  }

  /**
   * An instance whose heartbeat has gone stale may already have lost what it holds to others: it
   * beats again before it records anything, and refuses if it cannot. (What it records is fenced
   * by its claim or lease as well, which another instance's take-over replaces.)
   */
  async fence(): Promise<void> {
    if (this.instances.holdsOn()) return;
    await this.instances.beat();
    if (!this.instances.holdsOn()) throw new ApiError(message('files.lostDatabase'));
  }

  /**
   * Whether a live instance holds the lease to finish the session (this one included: another
   * request of it may be finishing).
   */
  async finishingElsewhere(session: SessionRow): Promise<boolean> {
    if (session.status !== 'finishing' || session.instanceId === null) return false;
    if (session.updatedAt < this.clock() - finishLeaseMs) return false;
    return this.instances.isAlive(session.instanceId);
  }

  /**
   * Waits while a live instance finishes the session (or until it is gone), up to the take-over
   * wait: a crashed holder is seen dead within it.
   */
  async waitWhileFinishing(session: SessionRow): Promise<void> {
    const deadline = performance.now() + this.takeoverWaitMs;
    let current: SessionRow | undefined = session;
    while (current && (await this.finishingElsewhere(current))) {
      if (performance.now() >= deadline) throw new ApiError(message('files.beingFinished'));
      await sleep(this.pollMs);
      current = await this.repo.sessions.getSession(session.id);
    }
  }

  /** Takes the lease to finish the session; false while a live instance holds it. */
  claimFinish(sessionId: number): Promise<boolean> {
    const now = this.clock();
    return this.repo.sessions.claimFinish(
      sessionId,
      this.instances.id,
      now,
      this.instances.aliveSince(),
      now - finishLeaseMs,
    );
  }

  /** Gives the finish lease up (nothing when the session was dropped or the lease taken over). */
  async releaseFinish(sessionId: number): Promise<void> {
    await this.repo.sessions
      .releaseFinish(sessionId, this.instances.id, this.clock())
      .catch((failure: unknown) => {
        this.log?.warn({ err: failure, sessionId }, 'could not give up a finish lease');
      });
  }

  /**
   * Claims a chunk for writing (one writer per chunk, or a second send of it could land other
   * bytes over those being hashed); undefined when another request holds it. The claim names
   * this instance and lapses once it is dead.
   */
  async claimChunk(sessionId: number, index: number): Promise<Claim | undefined> {
    const token = randomUUID();
    const now = this.clock();
    let claimed: boolean;
    try {
      claimed = await this.repo.chunks.claimChunk(
        sessionId,
        index,
        { token, instanceId: this.instances.id },
        now,
        this.instances.aliveSince(),
        now - chunkClaimMs,
      );
    } catch (error) {
      // The session went away meanwhile (its claims go with it).
      if (!(await this.repo.sessions.getSession(sessionId)))
        throw retryUpload(message('files.noUploadInProgress'));
      throw error;
    }
    if (!claimed) return undefined;
    let released = false;
    return {
      token,
      release: async () => {
        if (released) return;
        released = true;
        await this.repo.chunks
          .releaseChunkClaim(sessionId, index, token)
          .catch((error: unknown) => {
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
  async claimChunkWaiting(sessionId: number, index: number): Promise<Claim | undefined> {
    const deadline = performance.now() + this.takeoverWaitMs;
    for (;;) {
      const claim = await this.claimChunk(sessionId, index);
      if (claim) return claim;
      if (await this.repo.chunks.getChunk(sessionId, index)) return undefined;
      if (performance.now() >= deadline) {
        throw new ApiError(message('files.chunkBusy'));
      }
      await sleep(this.pollMs);
    }
  }
}
