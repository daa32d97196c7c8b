import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Instances } from '../../../instances/instances';
import {
  StorageNotFoundError,
  type ChunkReceipt,
  type StagingRef,
  type Storage,
} from '../../../storage/index';
import type { ChunkRow, SessionRow } from '../library.tables';
import { outageOf } from '../../../http/unavailable';
import { Hasher } from './hasher';
import type { UploadRecords } from './upload-records';

/** Gives a chunk's body buffer back to its owner; with the buffer when it was handed away. */
export type Release = (returned?: ArrayBuffer) => void;

/** A received chunk whose bytes are to be folded into its upload's running MD5. */
export interface HashJob {
  session: SessionRow;
  index: number;
  data: Buffer;
  /** Whether the chunk was stored and recorded: a fold counts only then. */
  stored: Promise<boolean>;
  /** Called once the hash no longer reads `data` (see `handOver`). */
  release: Release;
  /** The whole ArrayBuffer under `data` may go to the hash thread and come back to `release`. */
  handOver: boolean;
}

/**
 * A running MD5 to save with the session: `state` after chunk `to`, to be written only where the
 * saved one still stands at chunk `from` (see `SessionsRepository.saveHashState`).
 */
export interface HashSave {
  from: number;
  to: number;
  state: string;
}

/** Bytes re-read from storage are handed to the hash thread in pieces of about this size. */
const readBatchBytes = 4 * 1024 * 1024;
/** How often a fold waiting for another instance's looks at the database again. */
const pollMs = 25;
/**
 * How long a folded state waits for the next chunk record of its session in this process to carry
 * it (see `takeSave`) before it is saved on its own: longer than a client takes to send the next
 * chunk's fields, short enough that another instance given that chunk hardly waits for it.
 */
const rideWaitMs = 100;

export function stagingOf(session: SessionRow): StagingRef {
  return { key: session.stagingKey, uploadId: session.stagingUploadId };
}

export function receiptOf(row: { idx: number; size: number; etag: string }): ChunkReceipt {
  return { index: row.idx, size: row.size, etag: row.etag };
}

/** A run of folds in this process continuing one another. */
class Lane {
  valid = true;
  /** The chain of this lane's folds: each settles once its state is in hand (or given up). */
  folded: Promise<void> = Promise.resolve();
  /** Where the saved state stands once the saves taken so far are written. */
  saved: number;
  /** Folded states not taken for a save yet, by the chunk count they stand at, ascending. */
  pending: { to: number; state: string }[] = [];
  /** The fallback save of `pending` when no record carries it. */
  timer: NodeJS.Timeout | undefined;
  /** The chain of saves written on their own. */
  writes: Promise<void> = Promise.resolve();

  constructor(
    /** The hash thread's key: a lane of its own, so dropping a dead lane spares a new one. */
    readonly key: string,
    /** The chunk the next fold of this lane starts at. */
    public next: number,
    /** The state the first fold starts from (the thread keeps it after that). */
    public start: string | undefined,
  ) {
    this.saved = next;
  }
}

/** A job of this process, from its arrival until its fold is done or given up. */
interface Running {
  index: number;
  /** Its hash is done (or it was given up): the answer of a later chunk may go. */
  hashed: Promise<void>;
  /** Its fold is done and its state in the lane (or it was given up). */
  finished: Promise<void>;
}

/**
 * Where the staging bytes of a session stand against the disk, on a store that makes chunks
 * durable with `syncStaging` (local disk): each chunk written is numbered, and a sync makes every
 * chunk numbered before it started durable. One sync at a time runs behind the chunks.
 */
class StagingSync {
  /** The number of the last chunk write noted, and up to which number the disk has them. */
  written = 0;
  synced = 0;
  /** Set once a sync covered everything (the upload is complete): all chunks are durable. */
  all = false;
  readonly numberOf = new Map<number, number>();
  running: Promise<void> | undefined;

  durable(index: number): boolean {
    const number = this.numberOf.get(index);
    return this.all || (number !== undefined && number <= this.synced);
  }
}

class LaneLost extends Error {}

export interface RunningHashesDeps {
  repo: UploadRecords;
  storage: Storage;
  instances: Instances;
  log?: { warn(obj: object, msg: string): void } | undefined;
  /**
   * How long a fold waits for the chunks before it to be folded (by this process or another
   * instance) before it gives up and leaves its chunk to be read back from storage.
   */
  waitMs: number;
  /** Whether another instance may continue the hash (see `Hasher`); true unless one instance. */
  portable: boolean;
}

/**
 * The running MD5 of each upload's contiguous prefix (DESIGN 6), kept in the session row so any
 * instance continues it from the bytes of the chunk it received, without reading stored bytes
 * again (DESIGN 2). A chunk's hash runs while it is written and may run on after its answer;
 * chunks are folded in order: a chunk whose predecessors are still on their way (in this process,
 * or being folded by another instance) waits a little for them. Only a chunk nobody will fold
 * from memory (its instance died, or it came too early) is read back where the store can, and
 * what is left is read once the upload is complete (`digestFile`).
 *
 * A folded state is not saved on its own: the next chunk's record carries it (`takeSave`), so a
 * chunk costs one durable write. It is saved on its own only when no record comes within
 * `rideWaitMs`, and before anyone else needs it. On a store whose chunks reach the disk with a
 * sync (`written`), a state is saved only once the chunks it covers are on disk.
 */
export class RunningHashes {
  private readonly hasher: Hasher;
  private readonly lanes = new Map<number, Lane>();
  private readonly running = new Map<number, Set<Running>>();
  private readonly wakers = new Map<number, Set<() => void>>();
  private readonly syncs = new Map<number, StagingSync>();
  private serial = 0;

  constructor(private readonly deps: RunningHashesDeps) {
    this.hasher = new Hasher(deps.portable);
  }

  /** The state saved with the session, if this process can continue from it. */
  private usableState(session: SessionRow): string | undefined {
    const saved = session.md5State;
    return saved && this.hasher.canLoad(saved) ? saved : undefined;
  }

  /**
   * Notes that the bytes of chunk `index` are written to staging (received here, or read back):
   * on a store that needs it, a sync makes them durable behind the chunks, and no saved state
   * covers them before (after a crash of the machine the saved MD5 must describe what is on disk).
   */
  written(session: SessionRow, index: number): void {
    if (!this.deps.storage.syncStaging) return;
    const sync = this.syncs.get(session.id) ?? new StagingSync();
    this.syncs.set(session.id, sync);
    sync.written += 1;
    sync.numberOf.set(index, sync.written);
    sync.running ??= this.syncBehind(session, sync);
  }

  private async syncBehind(session: SessionRow, sync: StagingSync): Promise<void> {
    try {
      while (sync.synced < sync.written && this.syncs.get(session.id) === sync) {
        const upTo = sync.written;
        await this.deps.storage.syncStaging?.(stagingOf(session));
        sync.synced = upTo;
        const lane = this.lanes.get(session.id);
        if (lane?.valid && this.saveable(session.id, lane)) this.scheduleSave(session.id, lane);
      }
    } catch (error) {
      // Gone with its session (finished or dropped), or the disk failed: the states wait for the
      // sync at the end, which reports a failing disk to the upload.
      if (!(error instanceof StorageNotFoundError))
        this.deps.log?.warn({ err: error, sessionId: session.id }, 'upload staging sync failed');
    } finally {
      sync.running = undefined;
    }
  }

  /** Whether chunk `index` of the session is on disk (always, on a store without syncs). */
  private durable(sessionId: number, index: number): boolean {
    if (!this.deps.storage.syncStaging) return true;
    return this.syncs.get(sessionId)?.durable(index) ?? false;
  }

  /** The latest pending state of the lane whose chunks are all durable. */
  private saveable(sessionId: number, lane: Lane): { to: number; state: string } | undefined {
    let found: { to: number; state: string } | undefined;
    let next = lane.saved;
    for (const entry of lane.pending) {
      for (; next < entry.to; next += 1) if (!this.durable(sessionId, next)) return found;
      found = entry;
    }
    return found;
  }

  /** Takes the state to save with a chunk's record; `landed` says what became of it. */
  takeSave(sessionId: number): HashSave | undefined {
    const lane = this.lanes.get(sessionId);
    if (!lane?.valid) return undefined;
    return this.take(sessionId, lane);
  }

  /**
   * What became of a save a record took: written (`true`), refused because the saved state had
   * moved (`false`: this lane is behind, dropped), or not written because the record failed
   * (`undefined`: it is saved on its own).
   */
  landed(sessionId: number, save: HashSave, written: boolean | undefined): void {
    const lane = this.lanes.get(sessionId);
    if (!lane || lane.saved < save.to) return;
    if (written === true) this.wake(sessionId);
    else if (written === false) this.invalidate(sessionId, lane);
    else this.write(sessionId, lane, save);
  }

  /**
   * Queues a chunk's fold. Resolves once the hashes of the chunks before the one before it in this
   * process are done, so hashing stays at most about two chunks behind the answers and memory
   * stays bounded.
   */
  add(job: HashJob): Promise<void> {
    const { session, index } = job;
    const mine = this.running.get(session.id) ?? new Set<Running>();
    this.running.set(session.id, mine);
    const before = [...mine].filter((other) => other.index < index);
    let hashed: () => void = () => undefined;
    const entry: Running = {
      index,
      hashed: new Promise<void>((resolve) => {
        hashed = resolve;
      }),
      finished: Promise.resolve(),
    };
    mine.add(entry);
    entry.finished = (async () => {
      let handedOver = false;
      try {
        await Promise.all(before.map((other) => other.hashed));
        const lane = await this.laneAt(session, index);
        if (!lane) return;
        handedOver = job.handOver;
        const folding = this.foldInto(lane, session, index, [job.data], job.stored, {
          giveBack: job.handOver ? (buffers) => job.release(buffers[0]) : undefined,
        });
        await folding.state.then(hashed, hashed);
        await folding.folded;
      } catch (error) {
        this.deps.log?.warn({ err: error, sessionId: session.id }, 'running upload hash failed');
      } finally {
        hashed();
        // The write may still read the bytes; a buffer handed over comes back by itself.
        await job.stored;
        if (!handedOver) job.release();
        mine.delete(entry);
        if (mine.size === 0 && this.running.get(session.id) === mine)
          this.running.delete(session.id);
      }
    })();
    // The chunk just before may still be hashing: a short stall of the hash thread does not
    // hold up the answer, and at most three chunks of a session wait in memory.
    const behind = before.filter((other) => other.index < index - 1);
    return Promise.all(behind.map((other) => other.hashed)).then(() => undefined);
  }

  /**
   * Waits until this process's folds of the session are done and saved and, within the wait
   * bound, until the others' reach the end; chunks nobody will fold from memory are read back
   * meanwhile.
   */
  async settle(session: SessionRow): Promise<void> {
    const mine = this.running.get(session.id);
    if (mine) await Promise.all([...mine].map((entry) => entry.finished));
    await this.laneAt(session, session.chunks);
    await this.syncAll(session);
    await this.flush(session.id);
  }

  /** One last sync: every chunk of the complete upload is on disk (whoever wrote it). */
  private async syncAll(session: SessionRow): Promise<void> {
    if (!this.deps.storage.syncStaging) return;
    const sync = this.syncs.get(session.id) ?? new StagingSync();
    this.syncs.set(session.id, sync);
    await sync.running;
    await this.deps.storage.syncStaging(stagingOf(session));
    sync.all = true;
  }

  /**
   * The MD5 of the whole assembled file: the saved state, continued over whatever was not folded
   * yet, read from storage (`read` streams the staging object from a byte).
   */
  async digestFile(
    session: SessionRow,
    read: (from: number) => Promise<Readable>,
  ): Promise<string> {
    // No saved state this process can load (node's kept by another process): hash it all again.
    const start = session.hashedChunks > 0 ? this.usableState(session) : undefined;
    const from = start ? Math.min(session.hashedChunks * session.chunkSize, session.size) : 0;
    try {
      return await this.hasher.digest(await this.foldStream(session, from, start, read));
    } catch (error) {
      // A state saved by another version of hash-wasm does not load: hash it all again.
      if (from === 0 || error instanceof StorageNotFoundError || outageOf(error)) throw error;
      this.deps.log?.warn(
        { err: error, sessionId: session.id },
        'saved upload hash unusable; hashing the whole file again',
      );
      return this.hasher.digest(await this.foldStream(session, 0, undefined, read));
    }
  }

  /** Forgets a session that is finished or dropped. */
  forget(sessionId: number): void {
    const lane = this.lanes.get(sessionId);
    if (lane) this.invalidate(sessionId, lane);
    this.syncs.delete(sessionId);
    this.wake(sessionId);
  }

  close(): Promise<void> {
    for (const [sessionId, lane] of this.lanes) this.invalidate(sessionId, lane);
    return this.hasher.close();
  }

  /** Streams the file from byte `from` through the hash; the state at its end. */
  private async foldStream(
    session: SessionRow,
    from: number,
    start: string | undefined,
    read: (from: number) => Promise<Readable>,
  ): Promise<string | undefined> {
    if (from >= session.size) return start;
    const key = `file:${session.id}:${++this.serial}`;
    const stream = await read(from);
    let offset = from;
    let first = start;
    let batch: Buffer[] = [];
    let batched = 0;
    // Two pieces in flight at most: the hash must not let read bytes pile up.
    const inFlight: Promise<string>[] = [];
    const flush = async () => {
      const piece = Buffer.concat(batch, batched);
      inFlight.push(this.hasher.fold(key, offset, first, [piece]).state);
      first = undefined;
      offset += batched;
      batch = [];
      batched = 0;
      if (inFlight.length > 2) await inFlight.shift();
    };
    try {
      for await (const part of stream as AsyncIterable<Buffer>) {
        batch.push(part);
        batched += part.length;
        if (batched >= readBatchBytes) await flush();
      }
      if (batched > 0) await flush();
      if (offset !== session.size) throw new StorageNotFoundError(session.stagingKey);
      const states = await Promise.all(inFlight);
      return states.at(-1);
    } finally {
      await Promise.allSettled(inFlight);
      await this.hasher.drop(key);
    }
  }

  /**
   * A lane whose next fold starts at chunk `index`, once the chunks before it are folded; or
   * undefined when the chunk is folded already, or its predecessors did not come in time.
   */
  private async laneAt(session: SessionRow, index: number): Promise<Lane | undefined> {
    const deadline = performance.now() + this.deps.waitMs;
    // The session as the chunk's request read it: a lane may start from it without asking again
    // (a state saved meanwhile by another instance makes this lane's first save fail, not lie),
    // but a chunk it shows behind is asked about afresh.
    let known: SessionRow | undefined = session;
    for (;;) {
      const lane = this.lanes.get(session.id);
      if (lane?.valid) {
        if (lane.next === index) return lane;
        if (lane.next > index) return undefined;
        // The chunk the lane goes on with is being folded here: no need to ask the database.
        if (this.runningHere(session.id, lane.next)) {
          if (performance.now() >= deadline) return undefined;
          await this.nap(session.id);
          continue;
        }
        // Others may go on from this lane's state: it is saved first.
        await this.flush(session.id);
      }
      // A row read earlier only ever lags: it answers for a chunk it shows folded or next, never
      // for one it shows behind (that chunk may have been saved since).
      const current =
        known && known.hashedChunks >= index
          ? known
          : await this.deps.repo.sessions.getSession(session.id);
      known = undefined;
      if (!current || current.hashedChunks > index) return undefined;
      if (current.hashedChunks === index) return this.openLane(current);
      const front = await this.deps.repo.chunks.getChunk(current.id, current.hashedChunks);
      if (front && (await this.orphaned(front))) {
        if (!(await this.readBack(current, front))) return undefined;
        continue;
      }
      if (performance.now() >= deadline) return undefined;
      await this.nap(session.id);
    }
  }

  private runningHere(sessionId: number, index: number): boolean {
    return [...(this.running.get(sessionId) ?? [])].some((entry) => entry.index === index);
  }

  /** Whether nobody will fold a recorded chunk from memory: its job here or its instance is gone. */
  private async orphaned(chunk: ChunkRow): Promise<boolean> {
    if (chunk.instanceId === this.deps.instances.id)
      return !this.runningHere(chunk.sessionId, chunk.idx);
    return !(await this.deps.instances.isAlive(chunk.instanceId));
  }

  /** Folds a stored chunk read back from storage; false when the store cannot give it. */
  private async readBack(session: SessionRow, chunk: ChunkRow): Promise<boolean> {
    const bytes = await this.deps.storage.readChunk(
      stagingOf(session),
      receiptOf(chunk),
      session.chunkSize,
    );
    // (A lane is opened, replacing this process's, only once the bytes are in hand.)
    const lane = bytes && this.openLane(session);
    if (!bytes || !lane) return false;
    // Written by an instance that is gone: on disk once this process has synced the file.
    this.written(session, chunk.idx);
    const folding = this.foldInto(lane, session, chunk.idx, [bytes], Promise.resolve(true), {});
    await folding.folded;
    return lane.valid;
  }

  /** A lane starting from the state saved with the session. */
  private openLane(session: SessionRow): Lane | undefined {
    const start = session.hashedChunks > 0 ? this.usableState(session) : undefined;
    // A state this process cannot continue: `digestFile` hashes the file from the start.
    if (session.hashedChunks > 0 && !start) return undefined;
    const old = this.lanes.get(session.id);
    if (old) this.invalidate(session.id, old);
    const lane = new Lane(`session:${session.id}:${++this.serial}`, session.hashedChunks, start);
    this.lanes.set(session.id, lane);
    return lane;
  }

  /** Sends a fold down a lane; its state becomes the lane's pending save once the chunk is stored. */
  private foldInto(
    lane: Lane,
    session: SessionRow,
    index: number,
    pieces: Buffer[],
    stored: Promise<boolean>,
    { giveBack }: { giveBack?: ((buffers: ArrayBuffer[]) => void) | undefined },
  ): { state: Promise<string>; folded: Promise<void> } {
    const { state } = this.hasher.fold(
      lane.key,
      index * session.chunkSize,
      lane.start,
      pieces,
      giveBack,
    );
    lane.start = undefined;
    lane.next = index + 1;
    const folded = lane.folded.then(async () => {
      try {
        const after = await state;
        if (!lane.valid) return;
        if (!(await stored)) throw new LaneLost('the chunk was not stored');
        lane.pending.push({ to: index + 1, state: after });
        this.wake(session.id);
        // The next chunk's record carries it (a chunk on its way here, or one that comes soon),
        // once its bytes are on disk; otherwise it is saved on its own a moment later.
        if (this.saveable(session.id, lane)) this.scheduleSave(session.id, lane);
      } catch (error) {
        this.invalidate(session.id, lane);
        if (!(error instanceof LaneLost))
          this.deps.log?.warn({ err: error, sessionId: session.id }, 'running upload hash lost');
      }
    });
    lane.folded = folded;
    return { state, folded };
  }

  private scheduleSave(sessionId: number, lane: Lane): void {
    if (lane.timer) return;
    lane.timer = setTimeout(() => void this.flush(sessionId), rideWaitMs);
    lane.timer.unref();
  }

  /**
   * Takes the lane's latest state whose chunks are on disk for a save (which either lands or
   * drops the lane); undefined when there is none.
   */
  private take(sessionId: number, lane: Lane): HashSave | undefined {
    const latest = this.saveable(sessionId, lane);
    if (!latest) return undefined;
    const save = { from: lane.saved, to: latest.to, state: latest.state };
    lane.pending = lane.pending.filter((entry) => entry.to > latest.to);
    clearTimeout(lane.timer);
    lane.timer = undefined;
    lane.saved = save.to;
    // States still waiting for the disk are saved once the sync behind them is done.
    return save;
  }

  /** Saves the lane's pending state now, if there is one; resolves once its saves are written. */
  private async flush(sessionId: number): Promise<void> {
    const lane = this.lanes.get(sessionId);
    if (!lane) return;
    const save = lane.valid ? this.take(sessionId, lane) : undefined;
    if (save) this.write(sessionId, lane, save);
    await lane.writes;
  }

  /** Writes a save on its own, after the lane's earlier ones. */
  private write(sessionId: number, lane: Lane, save: HashSave): void {
    lane.writes = lane.writes.then(async () => {
      try {
        if (
          !(await this.deps.repo.sessions.saveHashState(sessionId, save.from, save.to, save.state))
        )
          throw new LaneLost('another fold saved these chunks first');
        this.wake(sessionId);
      } catch (error) {
        this.invalidate(sessionId, lane);
        if (!(error instanceof LaneLost))
          this.deps.log?.warn({ err: error, sessionId }, 'running upload hash lost');
      }
    });
  }

  private invalidate(sessionId: number, lane: Lane): void {
    lane.valid = false;
    lane.pending = [];
    clearTimeout(lane.timer);
    if (this.lanes.get(sessionId) === lane) this.lanes.delete(sessionId);
    void this.hasher.drop(lane.key).catch(() => undefined);
  }

  /** Sleeps until a fold of the session is done here, or a moment has passed. */
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
