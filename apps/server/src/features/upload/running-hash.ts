import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Instances } from '../../instances/instances';
import {
  StorageNotFoundError,
  type ChunkReceipt,
  type StagingRef,
  type Storage,
} from '../../storage/index';
import type { ChunkRow, SessionRow } from '../../db/files.tables';
import { Hasher, type Folding, type HashStates } from './hasher';
import type { UploadRepository } from './upload.repository';

/** Gives a chunk's body buffer back to its owner; with the buffer when it was handed away. */
export type Release = (returned?: ArrayBuffer) => void;

/** A received chunk whose bytes are to be folded into its upload's running hashes. */
export interface HashJob {
  session: SessionRow;
  index: number;
  data: Buffer;
  /** Whether the chunk was stored and recorded: a fold counts only then. */
  stored: Promise<boolean>;
  /** Called once the hashes no longer read `data` (see `handOver`). */
  release: Release;
  /** The whole ArrayBuffer under `data` may go to the hash threads and come back to `release`. */
  handOver: boolean;
}

/** Bytes re-read from storage are handed to the hash threads in pieces of about this size. */
const readBatchBytes = 4 * 1024 * 1024;
/** How often a fold waiting for another instance's looks at the database again. */
const pollMs = 25;

export function stagingOf(session: SessionRow): StagingRef {
  return { key: session.stagingKey, uploadId: session.stagingUploadId };
}

export function receiptOf(row: { idx: number; size: number; etag: string }): ChunkReceipt {
  return { index: row.idx, size: row.size, etag: row.etag };
}

/** The hashes saved with a session (none yet at chunk 0; undefined if a state is missing). */
function savedStates(session: SessionRow): HashStates | undefined {
  if (!session.md5State || !session.sha256State) return undefined;
  return { md5: session.md5State, sha256: session.sha256State };
}

/** A run of folds in this process continuing one another, each saved after the one before. */
class Lane {
  valid = true;
  /** The chain of database saves of this lane's folds. */
  saved: Promise<void> = Promise.resolve();

  constructor(
    /** The hash threads' key: a lane of its own, so dropping a dead lane spares a new one. */
    readonly key: string,
    /** The chunk the next fold of this lane starts at. */
    public next: number,
    /** The states the first fold starts from (the threads keep them after that). */
    public start: HashStates | undefined,
  ) {}
}

/** A job of this process, from its arrival until its fold is saved or given up. */
interface Running {
  index: number;
  /** Its MD5 is done (or it was given up): the next chunk's fold may be sent. */
  md5Done: Promise<void>;
  /** Both its hashes are done (or it was given up): the answer of a later chunk may go. */
  hashed: Promise<void>;
  /** Its states are saved (or it was given up). */
  finished: Promise<void>;
}

class LaneLost extends Error {}

export interface RunningHashesDeps {
  repo: UploadRepository;
  storage: Storage;
  instances: Instances;
  log?: { warn(obj: object, msg: string): void } | undefined;
  /**
   * How long a fold waits for the chunks before it to be folded (by this process or another
   * instance) before it gives up and leaves its chunk to be read back from storage.
   */
  waitMs: number;
  /** Whether another instance may continue the hashes (see `Hasher`); true unless one instance. */
  portable: boolean;
}

/**
 * The running MD5 and SHA-256 of each upload's contiguous prefix (DESIGN 6), kept in the session
 * row after every chunk so any instance continues them from the bytes of the chunk it received,
 * without reading stored bytes again (DESIGN 2). A chunk's hash runs while it is written and may
 * run on after its answer; chunks are folded in order: a chunk whose predecessors are still on
 * their way (in this process, or being folded by another instance) waits a little for them. Only
 * a chunk nobody will fold from memory (its instance died, or it came too early) is read back
 * where the store can, and what is left is read once the upload is complete (`digestFile`).
 */
export class RunningHashes {
  private readonly hasher: Hasher;
  private readonly lanes = new Map<number, Lane>();
  private readonly running = new Map<number, Set<Running>>();
  private readonly wakers = new Map<number, Set<() => void>>();
  private serial = 0;

  constructor(private readonly deps: RunningHashesDeps) {
    this.hasher = new Hasher(deps.portable);
  }

  /** The states saved with the session, if this process can continue from them. */
  private usableStates(session: SessionRow): HashStates | undefined {
    const saved = savedStates(session);
    return saved && this.hasher.canLoad(saved) ? saved : undefined;
  }

  /**
   * Queues a chunk's fold. Resolves once the hashes of the chunks before it in this process are
   * done, so hashing stays at most about a chunk behind the answers and memory stays bounded.
   */
  add(job: HashJob): Promise<void> {
    const { session, index } = job;
    const mine = this.running.get(session.id) ?? new Set<Running>();
    this.running.set(session.id, mine);
    const before = [...mine].filter((other) => other.index < index);
    let md5Done: () => void = () => undefined;
    let hashed: () => void = () => undefined;
    const entry: Running = {
      index,
      md5Done: new Promise<void>((resolve) => {
        md5Done = resolve;
      }),
      hashed: new Promise<void>((resolve) => {
        hashed = resolve;
      }),
      finished: Promise.resolve(),
    };
    mine.add(entry);
    entry.finished = (async () => {
      let handedOver = false;
      try {
        await Promise.all(before.map((other) => other.md5Done));
        const lane = await this.laneAt(session, index);
        if (!lane) return;
        handedOver = job.handOver;
        const folding = this.foldInto(lane, session, index, [job.data], job.stored, {
          giveBack: job.handOver ? (buffers) => job.release(buffers[0]) : undefined,
        });
        void folding.md5Done.then(md5Done);
        await folding.states.then(hashed, hashed);
        await folding.saved;
      } catch (error) {
        this.deps.log?.warn({ err: error, sessionId: session.id }, 'running upload hash failed');
      } finally {
        md5Done();
        hashed();
        // The write may still read the bytes; a buffer handed over comes back by itself.
        await job.stored;
        if (!handedOver) job.release();
        mine.delete(entry);
        if (mine.size === 0 && this.running.get(session.id) === mine)
          this.running.delete(session.id);
      }
    })();
    return Promise.all(before.map((other) => other.hashed)).then(() => undefined);
  }

  /**
   * Waits until this process's folds of the session are saved and, within the wait bound, until
   * the others' reach the end; chunks nobody will fold from memory are read back meanwhile.
   */
  async settle(session: SessionRow): Promise<void> {
    const mine = this.running.get(session.id);
    if (mine) await Promise.all([...mine].map((entry) => entry.finished));
    await this.laneAt(session, session.chunks);
  }

  /**
   * The MD5 and SHA-256 of the whole assembled file: the saved states, continued over whatever
   * was not folded yet, read from storage (`read` streams the staging object from a byte).
   */
  async digestFile(
    session: SessionRow,
    read: (from: number) => Promise<Readable>,
  ): Promise<{ md5: string; sha256: string }> {
    // No saved SHA-256 this process can load (an upload begun before it was kept, or node's kept
    // by another process): hash it all again.
    const start = session.hashedChunks > 0 ? this.usableStates(session) : undefined;
    const from = start ? Math.min(session.hashedChunks * session.chunkSize, session.size) : 0;
    try {
      return await this.hasher.digest(await this.foldStream(session, from, start, read));
    } catch (error) {
      // States saved by another version of hash-wasm do not load: hash it all again.
      if (from === 0 || error instanceof StorageNotFoundError) throw error;
      this.deps.log?.warn(
        { err: error, sessionId: session.id },
        'saved upload hashes unusable; hashing the whole file again',
      );
      return this.hasher.digest(await this.foldStream(session, 0, undefined, read));
    }
  }

  /** Forgets a session that is finished or dropped. */
  forget(sessionId: number): void {
    const lane = this.lanes.get(sessionId);
    if (lane) this.invalidate(sessionId, lane);
    this.wake(sessionId);
  }

  close(): Promise<void> {
    return this.hasher.close();
  }

  /** Streams the file from byte `from` through the hashes; the states at its end. */
  private async foldStream(
    session: SessionRow,
    from: number,
    start: HashStates | undefined,
    read: (from: number) => Promise<Readable>,
  ): Promise<HashStates | undefined> {
    if (from >= session.size) return start;
    const key = `file:${session.id}:${++this.serial}`;
    const stream = await read(from);
    let offset = from;
    let first = start;
    let batch: Buffer[] = [];
    let batched = 0;
    // Two pieces in flight at most: the slower hash must not let read bytes pile up.
    const inFlight: Folding[] = [];
    const flush = async () => {
      const piece = Buffer.concat(batch, batched);
      inFlight.push(this.hasher.fold(key, offset, first, [piece]));
      first = undefined;
      offset += batched;
      batch = [];
      batched = 0;
      if (inFlight.length > 2) await inFlight.shift()?.states;
    };
    try {
      for await (const part of stream as AsyncIterable<Buffer>) {
        batch.push(part);
        batched += part.length;
        if (batched >= readBatchBytes) await flush();
      }
      if (batched > 0) await flush();
      if (offset !== session.size) throw new StorageNotFoundError(session.stagingKey);
      const states = await Promise.all(inFlight.map((folding) => folding.states));
      return states.at(-1);
    } finally {
      await Promise.allSettled(inFlight.map((folding) => folding.states));
      await this.hasher.drop(key);
    }
  }

  /**
   * A lane whose next fold starts at chunk `index`, once the chunks before it are folded; or
   * undefined when the chunk is folded already, or its predecessors did not come in time.
   */
  private async laneAt(session: SessionRow, index: number): Promise<Lane | undefined> {
    const deadline = performance.now() + this.deps.waitMs;
    for (;;) {
      const lane = this.lanes.get(session.id);
      if (lane?.valid && lane.next === index) return lane;
      // This process's own saves reach the database first.
      await lane?.saved;
      const settled = this.lanes.get(session.id);
      if (settled?.valid && settled.next === index) return settled;
      const current = await this.deps.repo.getSession(session.id);
      if (!current || current.hashedChunks > index) return undefined;
      if (current.hashedChunks === index) return this.openLane(current);
      const front = await this.deps.repo.getChunk(current.id, current.hashedChunks);
      if (front && (await this.orphaned(front))) {
        if (!(await this.readBack(current, front))) return undefined;
        continue;
      }
      if (performance.now() >= deadline) return undefined;
      await this.nap(session.id);
    }
  }

  /** Whether nobody will fold a recorded chunk from memory: its job here or its instance is gone. */
  private async orphaned(chunk: ChunkRow): Promise<boolean> {
    if (chunk.instanceId === this.deps.instances.id) {
      const mine = this.running.get(chunk.sessionId);
      return ![...(mine ?? [])].some((entry) => entry.index === chunk.idx);
    }
    return !(await this.deps.instances.isAlive(chunk.instanceId));
  }

  /** Folds a stored chunk read back from storage; false when the store cannot give it. */
  private async readBack(session: SessionRow, chunk: ChunkRow): Promise<boolean> {
    const lane = this.openLane(session);
    if (!lane) return false;
    const bytes = await this.deps.storage.readChunk(
      stagingOf(session),
      receiptOf(chunk),
      session.chunkSize,
    );
    if (!bytes) return false;
    const folding = this.foldInto(lane, session, chunk.idx, [bytes], Promise.resolve(true), {});
    await folding.saved;
    return lane.valid;
  }

  /** A lane starting from the states saved with the session. */
  private openLane(session: SessionRow): Lane | undefined {
    const start = session.hashedChunks > 0 ? this.usableStates(session) : undefined;
    // States this process cannot continue: `digestFile` hashes the file from the start.
    if (session.hashedChunks > 0 && !start) return undefined;
    const lane = new Lane(`session:${session.id}:${++this.serial}`, session.hashedChunks, start);
    this.lanes.set(session.id, lane);
    return lane;
  }

  /** Sends a fold down a lane and chains the save of its states behind the lane's earlier ones. */
  private foldInto(
    lane: Lane,
    session: SessionRow,
    index: number,
    pieces: Buffer[],
    stored: Promise<boolean>,
    { giveBack }: { giveBack?: ((buffers: ArrayBuffer[]) => void) | undefined },
  ): Folding & { saved: Promise<void> } {
    const folding = this.hasher.fold(
      lane.key,
      index * session.chunkSize,
      lane.start,
      pieces,
      giveBack,
    );
    lane.start = undefined;
    lane.next = index + 1;
    const saved = lane.saved.then(async () => {
      try {
        const states = await folding.states;
        if (!lane.valid) return;
        if (!(await stored)) throw new LaneLost('the chunk was not stored');
        if (!(await this.deps.repo.saveHashState(session.id, index, index + 1, states)))
          throw new LaneLost('another fold saved these chunks first');
        this.wake(session.id);
      } catch (error) {
        this.invalidate(session.id, lane);
        if (!(error instanceof LaneLost))
          this.deps.log?.warn({ err: error, sessionId: session.id }, 'running upload hash lost');
      }
    });
    lane.saved = saved;
    return { ...folding, saved };
  }

  private invalidate(sessionId: number, lane: Lane): void {
    lane.valid = false;
    if (this.lanes.get(sessionId) === lane) this.lanes.delete(sessionId);
    void this.hasher.drop(lane.key).catch(() => undefined);
  }

  /** Sleeps until a fold of the session is saved here, or a moment has passed. */
  private async nap(sessionId: number): Promise<void> {
    const wakers = this.wakers.get(sessionId) ?? new Set<() => void>();
    this.wakers.set(sessionId, wakers);
    const controller = new AbortController();
    const woken = () => controller.abort();
    wakers.add(woken);
    try {
      await sleep(pollMs, undefined, { signal: controller.signal }).catch(() => undefined);
    } finally {
      wakers.delete(woken);
      if (wakers.size === 0 && this.wakers.get(sessionId) === wakers) this.wakers.delete(sessionId);
    }
  }

  private wake(sessionId: number): void {
    for (const woken of this.wakers.get(sessionId) ?? []) woken();
  }
}
