import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../../bus/index';
import { IncidentLog } from '../../../incident-log';
import {
  channelOf,
  type AnswerRepository,
  type Job,
  type JobEvent,
  type Tidied,
} from '../streaming/index';
import { WritePace } from './write-pace';

export interface FlusherDeps {
  repo: AnswerRepository;
  bus: Bus;
  log: FastifyBaseLogger;
  now: () => number;
  /** The writer recorded on the answers: only their rows are written. */
  instanceId: string;
  /** The answers this instance writes: one no longer here is written no more. */
  jobs: ReadonlyMap<number, Job>;
  /** At most one write per tick: text arriving within a tick shares the next write. */
  tickMs: number;
  /** After a failed write, how long before trying again. */
  retryMs: number;
  /**
   * How long an answer's written parts wait before its text is folded into its row
   * (append-sql.mjs); the folds of many answers are spread over the ticks.
   */
  foldMs: number;
}

/** Parts one step of the sweep examines: a step costs about the same however many there are. */
const SWEEP_STEP = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The text of one answer in a write: `text` goes at `offset` of its content, as delta `seq`. */
interface Snapshot {
  job: Job;
  offset: number;
  text: string;
  seq: number;
}

/**
 * The answers to fold now, from those written since their last fold (`waiting`, each with when
 * that first write was, the longest waiting first): those that have waited `foldMs`, at most
 * `most`. Answers no longer live are dropped from `waiting` (their end writes their whole text).
 */
export function foldsDue<T>(
  waiting: Map<T, number>,
  now: number,
  { foldMs, most, live }: { foldMs: number; most: number; live: (job: T) => boolean },
): T[] {
  const due: T[] = [];
  for (const [job, since] of waiting) {
    if (due.length >= most || now - since < foldMs) break;
    if (live(job)) due.push(job);
    else waiting.delete(job);
  }
  return due;
}

/**
 * The group commit of streamed text (DESIGN 8): text is written before it is shown. Every answer
 * that received text since the last write joins the next one, a single statement appending only
 * the new text of all of them (`AnswerRepository.appendContent`); only once it has committed is
 * the same text published, here and on `chat:<messageId>`. Writes run on a fixed tick: the first
 * text after a quiet spell is written at once, then at most one write per `tickMs`, so the cost
 * per token falls as the load grows. Text that arrives during a write goes in the next one.
 */
export class AnswerFlusher {
  /** Answers with text not yet written. */
  private readonly dirty = new Set<Job>();
  private queued = false;
  /**
   * A step of the folds, sweep or index failed with nothing to write: they wait for the next
   * write or end rather than failing again every tick (a database out of reach, a closed thread).
   */
  private stalled = false;
  private readonly pace: WritePace;
  private flushing: Promise<void> | undefined;
  private readonly publishing: IncidentLog;
  private readonly folding: IncidentLog;
  private readonly sweeping: IncidentLog;
  private readonly indexing: IncidentLog;
  /**
   * Answers written since their last fold, each with when that first write was: the longest
   * waiting come first (a Map keeps the order entries were added in).
   */
  private readonly unfolded = new Map<Job, number>();
  /** The sweep's place: the key of the last part its previous step examined. */
  private sweepAfter = 0;
  /** When the sweep's pass through the parts began, and when the last whole pass had begun. */
  private passBegan = performance.now();
  private sweptSince = -Infinity;
  /** When parts were last left for the sweep: folded, or their answer ended. */
  private leftAt = -Infinity;
  /**
   * When answers last ended (queued for the search index: fts-queue-sql.mjs), and when the last
   * step that found the queue empty began.
   */
  private endedAt = -Infinity;
  private indexedAt = -Infinity;
  /** Answers whose provider has ended, each waiting (`drain`) for its last text to be written. */
  private readonly draining = new Map<Job, () => void>();

  constructor(private readonly deps: FlusherDeps) {
    this.publishing = new IncidentLog(deps.log, 'publishing chat deltas');
    this.folding = new IncidentLog(deps.log, 'folding streamed chat text');
    this.sweeping = new IncidentLog(deps.log, 'sweeping streamed chat parts');
    this.indexing = new IncidentLog(deps.log, 'indexing ended chat answers');
    this.pace = new WritePace(deps.tickMs);
  }

  /** The flush under way, if any (for shutdown). */
  get running(): Promise<void> | undefined {
    return this.flushing;
  }

  /** Takes text for `job` (within its limits) and has it written on the next tick. */
  append(job: Job, text: string): void {
    if (!job.receive(text)) return;
    this.stalled = false;
    this.want(job);
  }

  /** Has `job`'s text written: with the next tick, or at once if it is the answer's first. */
  private want(job: Job): void {
    const idle = this.dirty.size === 0;
    this.dirty.add(job);
    this.pace.came(job, job.seq === 0, idle);
    if (!this.flushing) this.schedule();
  }

  /**
   * The provider of `job` has ended: its text still pending goes in the next write (which
   * publishes it) rather than waiting for the end's own write, so that the last tokens of
   * answers ending together are shown as promptly as any. Resolves once that text is written, or
   * once the write holding it failed or the job is no longer written here (its end then writes
   * the rest).
   */
  drain(job: Job): Promise<void> {
    if (!this.writable(job) || job.content.length <= job.stored) return Promise.resolve();
    return new Promise((resolve) => {
      this.draining.set(job, resolve);
      this.want(job);
    });
  }

  /**
   * Lets go of the answers draining whose text is written, or that no write will take; and of
   * those in `failed`, a write that did not go through.
   */
  private drained(failed: ReadonlySet<Job> = new Set(), all = false): void {
    for (const [job, resolve] of this.draining) {
      if (all || failed.has(job) || job.content.length <= job.stored || !this.writable(job)) {
        this.draining.delete(job);
        resolve();
      }
    }
  }

  /**
   * Answers have ended (their rows have their whole text): their parts are swept and their text
   * indexed for search, soon, a step per tick beside the writes.
   */
  tidy(): void {
    this.stalled = false;
    this.leftAt = performance.now();
    this.endedAt = this.leftAt;
    if (!this.flushing) this.schedule();
  }

  private schedule(): void {
    if (this.queued) return;
    this.queued = true;
    const run = () => {
      this.queued = false;
      this.flushing ??= this.flushLoop().finally(() => {
        this.flushing = undefined;
        // Text that came as the loop was ending is not left waiting for more.
        if (this.dirty.size > 0 || (!this.stalled && (this.untidy() || this.unindexed())))
          this.schedule();
      });
    };
    // Tokens of any answer that arrive in the same turn of the event loop share one write.
    if (this.pace.wait() <= 0) setImmediate(run);
    else void this.pace.rest(() => true).then(run);
  }

  /**
   * Tells the job's listeners here, then the bus's subscribers: the event is serialised only
   * when someone may be subscribed to the answer's channel (never, on one instance, while every
   * client is attached to the job itself).
   */
  emit(job: Job, event: JobEvent): void {
    for (const listener of [...job.listeners]) listener(event);
    const channel = channelOf(job.messageId);
    if (!this.deps.bus.mayHaveSubscribers(channel)) return;
    this.deps.bus.publish(channel, JSON.stringify(event)).then(
      () => this.publishing.succeeded(),
      (error: unknown) => this.publishing.failed(error, { messageId: job.messageId }),
    );
  }

  /** An answer whose text this instance writes: its end is not being written yet. */
  private writable(job: Job): boolean {
    return this.deps.jobs.get(job.messageId) === job && !job.ending && !job.lost;
  }

  /** An answer this instance still writes, its provider still read (its end folds the text). */
  private live(job: Job): boolean {
    return this.writable(job) && !job.outcome && !job.endReason;
  }

  /**
   * Writes and publishes new text until no live job has any, then sweeps until no part is left
   * that no reader needs; text arriving meanwhile joins. Each write is a tick (`tick`): after
   * its appends, the answers whose parts have waited `foldMs` are folded, a tick's share of
   * them (`foldsDue`: each answer about once per `foldMs`), and the sweep takes a step, so
   * neither waits for the number of answers. A write that failed is tried again exactly as it
   * was (same text, same seq): it may have committed though its caller saw it fail (a
   * connection lost after the commit, a writer thread given up while it waited), and the row
   * then keeps it once; text that came since goes in the write after, under the next seq.
   */
  private async flushLoop(): Promise<void> {
    let retry: Snapshot[] = [];
    for (;;) {
      let snapshots = retry.filter(({ job }) => this.writable(job));
      const again = snapshots.length > 0;
      if (!again) {
        const pending = [...this.dirty].filter(
          (job) => this.writable(job) && job.content.length > job.stored,
        );
        this.dirty.clear();
        snapshots = pending.map((job) => ({
          job,
          offset: job.stored,
          text: job.content.slice(job.stored),
          seq: job.seq + 1,
        }));
      }
      if (snapshots.length === 0) {
        for (const job of this.unfolded.keys()) if (!this.live(job)) this.unfolded.delete(job);
        // Whatever still drains has nothing a write would take.
        this.drained(undefined, true);
        const [sweep, index] = [this.untidy(), this.unindexed()];
        if (!sweep && !index && !this.foldDue()) return;
        // Nothing to write: the folds due, the sweep and the index go on alone, a step per
        // tick; a failed step leaves them to the next write or end (the parts and the queue
        // wait; reads and searches do without them). Such a step is not a write: text that
        // comes meanwhile is written as soon as the tick of the last write allows (`rest`).
        const { written, tidied } = this.tick([], false, { sweep, index });
        // With nothing appended, a failed tick is the steps' failure (`tidied` tells it).
        written.catch(() => undefined);
        if (!(await tidied)) {
          this.stalled = true;
          return;
        }
        await this.pace.rest(() => this.dirty.size > 0);
        continue;
      }
      this.pace.wrote();
      const { written, tidied } = this.tick(snapshots, again, {
        sweep: true,
        index: this.unindexed(),
      });
      const write = this.publish(snapshots, written);
      for (const { job } of snapshots) job.writing = write;
      if (!(await write)) {
        await tidied;
        retry = snapshots;
        for (const { job } of snapshots) this.dirty.add(job);
        this.drained(new Set(snapshots.map(({ job }) => job)));
        await sleep(this.deps.retryMs);
        continue;
      }
      retry = [];
      this.drained();
      await tidied;
      if (this.dirty.size > 0) await this.pace.rest(() => true);
    }
  }

  /**
   * One tick of the group commit (`AnswerRepository.tick`): the appends of `snapshots`, then
   * the folds due (each row takes its whole text from memory, as this write leaves it), the
   * sweep's step and the index's step, as `steps` asks. `tidied` answers, once they are done,
   * whether every step asked for went through. A fold that fails is tried with the next tick:
   * the parts stay, and every read adds them.
   */
  private tick(
    snapshots: readonly Snapshot[],
    again: boolean,
    steps: { sweep: boolean; index: boolean },
  ): { written: Promise<Set<number>>; tidied: Promise<boolean> } {
    const due = this.foldsDue();
    const ahead = new Map(snapshots.map((snapshot) => [snapshot.job, snapshot]));
    const folds = due.map((job) => {
      const snapshot = ahead.get(job);
      return snapshot
        ? {
            id: job.messageId,
            text: job.content.slice(0, snapshot.offset + snapshot.text.length),
            seq: snapshot.seq,
          }
        : { id: job.messageId, text: job.content.slice(0, job.stored), seq: job.seq };
    });
    const began = performance.now();
    const { written, tidied } = this.deps.repo.tick({
      appends: snapshots.map(({ job, text, seq }) => ({ id: job.messageId, text, seq })),
      again,
      writer: this.deps.instanceId,
      folds,
      now: this.deps.now(),
      sweep: steps.sweep ? { after: this.sweepAfter, limit: SWEEP_STEP } : undefined,
      index: steps.index,
    });
    const failed = (error: unknown): Tidied => ({
      fold: folds.length > 0 ? { error } : undefined,
      sweep: steps.sweep ? { error } : undefined,
      index: steps.index ? { error } : undefined,
    });
    return {
      written,
      tidied: tidied.then(
        (outcome) => this.tidied(outcome, due, began),
        (error: unknown) => this.tidied(failed(error), due, began),
      ),
    };
  }

  /** Whether the answer longest waiting for its fold has waited `foldMs`. */
  private foldDue(): boolean {
    const since = this.unfolded.values().next().value;
    return since !== undefined && performance.now() - since >= this.deps.foldMs;
  }

  /** The answers to fold with the next write (`foldsDue`). */
  private foldsDue(): Job[] {
    const { foldMs, tickMs, jobs } = this.deps;
    return foldsDue(this.unfolded, performance.now(), {
      foldMs,
      most: foldMs > 0 ? Math.ceil((jobs.size * tickMs) / foldMs) : Infinity,
      live: (job) => this.live(job),
    });
  }

  /**
   * Takes in what a tick's tidying did (`due`: the answers it folded; `began`: when it was
   * asked for). Answers whether every step asked for went through.
   */
  private tidied({ fold, sweep, index }: Tidied, due: readonly Job[], began: number): boolean {
    let through = true;
    if (fold && 'error' in fold) {
      this.folding.failed(fold.error);
      through = false;
    } else if (fold) {
      for (const job of due) this.unfolded.delete(job);
      this.leftAt = performance.now();
      this.folding.succeeded();
    }
    if (sweep && 'error' in sweep) {
      this.sweeping.failed(sweep.error);
      through = false;
    } else if (sweep) {
      this.sweeping.succeeded();
      // Past the parts' end, the next pass starts from their beginning.
      if (sweep.value !== undefined) {
        this.sweepAfter = sweep.value;
      } else {
        this.sweepAfter = 0;
        this.sweptSince = this.passBegan;
        this.passBegan = performance.now();
      }
    }
    if (index && 'error' in index) {
      this.indexing.failed(index.error);
      through = false;
    } else if (index) {
      if (index.value) this.indexedAt = began;
      this.indexing.succeeded();
    }
    return through;
  }

  /** Whether parts were left for the sweep since its last whole pass began. */
  private untidy(): boolean {
    return this.leftAt >= this.sweptSince;
  }

  /** Whether answers ended since the search index's queue was last found empty. */
  private unindexed(): boolean {
    return this.endedAt >= this.indexedAt;
  }

  /** Once the write of `snapshots` has committed, publishes exactly what it wrote. */
  private async publish(
    snapshots: readonly Snapshot[],
    write: Promise<Set<number>>,
  ): Promise<boolean> {
    let written: Set<number>;
    try {
      written = await write;
    } catch (error) {
      this.deps.log.warn({ err: error }, 'writing streamed chat content failed');
      return false;
    }
    for (const { job, offset, text, seq } of snapshots) {
      if (!written.has(job.messageId)) {
        // Ended elsewhere (or deleted): this text is not stored, so it is never shown.
        job.lose();
        continue;
      }
      job.stored = offset + text.length;
      job.seq = seq;
      if (!this.unfolded.has(job)) this.unfolded.set(job, performance.now());
      this.emit(job, { t: 'd', seq, offset, text });
    }
    return true;
  }
}
