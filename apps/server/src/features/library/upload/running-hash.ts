import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Instances } from '../../../instances/instances';
import { StorageNotFoundError, type Storage } from '../../../storage/index';
import type { ChunkRow, SessionRow } from '../library.tables';
import { outageOf } from '../../../http/unavailable';
import { foldStream } from './fold-stream';
import { Hasher } from './hasher';
import { Lane, type HashJob, type HashSave, type Running } from './hash-lane';
import { receiptOf, stagingOf } from './staging';
import { StagingSyncs } from './staging-sync';

import type { UploadRecords } from './upload-records';

/** How often a fold waiting for another instance's looks at the database again. */
const pollMs = 25;
/**
 * How long a folded state waits for the next chunk record of its session in this process to carry
 * it (see `takeSave`) before it is saved on its own: longer than a client takes to send the next
 * chunk's fields, short enough that another instance given that chunk hardly waits for it.
 */
const rideWaitMs = 100;

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

  private readonly syncs: StagingSyncs;

  private serial = 0;

  constructor(private readonly deps: RunningHashesDeps) {
    this.hasher = new Hasher(deps.portable);
    this.syncs = new StagingSyncs(deps.storage, deps.log, (sessionId) => {
      const lane = this.lanes.get(sessionId);
      if (lane?.valid && this.saveable(sessionId, lane)) this.scheduleSave(sessionId, lane);
    });
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
    this.syncs.written(session, index);
  }

  /** The latest pending state of the lane whose chunks are all durable. */
  private saveable(sessionId: number, lane: Lane): { to: number; state: string } | undefined {
    let found: { to: number; state: string } | undefined;
    let next = lane.saved;
    for (const entry of lane.pending) {
      for (; next < entry.to; next += 1) if (!this.syncs.durable(sessionId, next)) return found;
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
    await this.syncs.syncAll(session);
    await this.flush(session.id);
  }

  /** A hash thread key of its own for one read of the stored file. */
  private streamKey(session: SessionRow): string {
    return `file:${session.id}:${++this.serial}`;
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
      return await this.hasher.digest(
        await foldStream(this.hasher, this.streamKey(session), session, from, start, read),
      );
    } catch (error) {
      // A state saved by another version of hash-wasm does not load: hash it all again.
      if (from === 0 || error instanceof StorageNotFoundError || outageOf(error)) throw error;
      this.deps.log?.warn(
        { err: error, sessionId: session.id },
        'saved upload hash unusable; hashing the whole file again',
      );
      return this.hasher.digest(
        await foldStream(this.hasher, this.streamKey(session), session, 0, undefined, read),
      );
    }
  }

  /** Forgets a session that is finished or dropped. */
  forget(sessionId: number): void {
    const lane = this.lanes.get(sessionId);
    if (lane) this.invalidate(sessionId, lane);
    this.syncs.forget(sessionId);
    this.wake(sessionId);
  }

  close(): Promise<void> {
    for (const [sessionId, lane] of this.lanes) this.invalidate(sessionId, lane);
    return this.hasher.close();
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
