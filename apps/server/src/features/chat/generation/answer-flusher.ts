import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../../bus/index';
import { IncidentLog } from '../../../incident-log';
import { channelOf, type AnswerRepository, type Job, type JobEvent } from '../streaming/index';

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
  /** How often the written parts are folded into the answers' rows (append-sql.mjs). */
  foldMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The text of one answer in a write: `text` goes at `offset` of its content, as delta `seq`. */
interface Snapshot {
  job: Job;
  offset: number;
  text: string;
  seq: number;
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
  private lastWriteAt = -Infinity;
  private flushing: Promise<void> | undefined;
  private readonly publishing: IncidentLog;
  private readonly folding: IncidentLog;
  /** When parts were last folded; whether any were written since. */
  private lastFoldAt = performance.now();
  private unfolded = false;

  constructor(private readonly deps: FlusherDeps) {
    this.publishing = new IncidentLog(deps.log, 'publishing chat deltas');
    this.folding = new IncidentLog(deps.log, 'folding streamed chat text');
  }

  /** The flush under way, if any (for shutdown). */
  get running(): Promise<void> | undefined {
    return this.flushing;
  }

  /** Takes text for `job` (within its limits) and has it written on the next tick. */
  append(job: Job, text: string): void {
    if (!job.receive(text)) return;
    this.dirty.add(job);
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
        if (this.dirty.size > 0) this.schedule();
      });
    };
    const wait = this.lastWriteAt + this.deps.tickMs - performance.now();
    // Tokens of any answer that arrive in the same turn of the event loop share one write.
    if (wait <= 0) setImmediate(run);
    else setTimeout(run, wait);
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

  /** An answer this instance still writes, not yet ended (its end writes the rest). */
  private live(job: Job): boolean {
    return this.deps.jobs.get(job.messageId) === job && !job.outcome && !job.endReason;
  }

  /**
   * Writes and publishes new text until no live job has any; text arriving meanwhile joins. A
   * write that failed is tried again exactly as it was (same text, same seq): it may have
   * committed though its caller saw it fail (a connection lost after the commit, a writer thread
   * given up while it waited), and the row then keeps it once; text that came since goes in the
   * write after, under the next seq.
   */
  private async flushLoop(): Promise<void> {
    let retry: Snapshot[] = [];
    for (;;) {
      let snapshots = retry.filter(({ job }) => this.live(job));
      const again = snapshots.length > 0;
      if (!again) {
        const pending = [...this.dirty].filter(
          (job) => this.live(job) && job.content.length > job.stored,
        );
        this.dirty.clear();
        snapshots = pending.map((job) => ({
          job,
          offset: job.stored,
          text: job.content.slice(job.stored),
          seq: job.seq + 1,
        }));
      }
      if (snapshots.length === 0) return;
      this.lastWriteAt = performance.now();
      const write = this.writeAndPublish(snapshots, again);
      for (const { job } of snapshots) job.writing = write;
      if (!(await write)) {
        retry = snapshots;
        for (const { job } of snapshots) this.dirty.add(job);
        await sleep(this.deps.retryMs);
        continue;
      }
      retry = [];
      this.unfolded = true;
      if (performance.now() - this.lastFoldAt >= this.deps.foldMs) await this.fold();
      const wait = this.lastWriteAt + this.deps.tickMs - performance.now();
      if (wait > 0 && this.dirty.size > 0) await sleep(wait);
    }
  }

  /**
   * Folds the parts written since the last fold into the answers' rows, between two writes. A
   * fold that fails is tried with the next one: the parts stay, and every read adds them.
   */
  private async fold(): Promise<void> {
    if (!this.unfolded) return;
    this.lastFoldAt = performance.now();
    try {
      await this.deps.repo.foldParts(this.deps.instanceId, this.deps.now());
      this.unfolded = false;
      this.folding.succeeded();
    } catch (error) {
      this.folding.failed(error);
    }
  }

  /**
   * One write of every pending answer (`again`: the write that failed, tried again); once it has
   * committed, publishes exactly what it wrote.
   */
  private async writeAndPublish(snapshots: readonly Snapshot[], again: boolean): Promise<boolean> {
    let written: Set<number>;
    try {
      written = await this.deps.repo.appendContent(
        snapshots.map(({ job, text, seq }) => ({ id: job.messageId, text, seq })),
        this.deps.instanceId,
        again,
      );
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
      this.emit(job, { t: 'd', seq, offset, text });
    }
    return true;
  }
}
