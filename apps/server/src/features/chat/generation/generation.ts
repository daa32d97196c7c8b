import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../../bus/index';
import type { Instances } from '../../../instances/instances';
import { TransactionGroup } from '../../../db/transaction-group';
import type { ChatSchema, MessageRow } from '../chat.tables';
import type { ImageAccess } from '../../library/index';
import type { ChatDocsService, Retrieved } from '../../chat-docs/index';
import { DeferredBumps, type ChatBudgets } from '../budgets/index';
import {
  AbandonedAnswers,
  AnswerRepository,
  EndMessages,
  estimateTokens,
  Job,
  WriterPresence,
  type GenerationRequest,
  type JobEvent,
  type Outcome,
} from '../streaming/index';
import { tapAnswerTokens } from '../../../ops/taps';
import { AnswerFlusher } from './answer-flusher';
import type { AnswerPlan } from './answer-plan';
import { buildPrompt } from './prompt';
import { readAnswer } from './provider-read';

export { channelOf, Job, type GenerationRequest, type JobEvent } from '../streaming/index';

/** One channel for every instance: the owner of the named message aborts it. */
const STOP_CHANNEL = 'chat:stop';

export interface GenerationOptions {
  /** Silence from the provider (before the first token or between two) that ends the answer. */
  idleTimeoutMs: number;
  /** After a failed write of an answer, how long before trying again. */
  retryMs: number;
  /** The group commit's tick: streamed text is written at most once per tick (answer-flusher.ts). */
  flushTickMs: number;
  /** How long an answer's written parts wait before its text is folded into its row. */
  foldMs: number;
  /** Most history messages considered for the prompt. */
  historyLimit: number;
  /**
   * How long a writer that is still running (present on the bus) may go without reaching the
   * database before another instance ends its answers (issue 26, point 5).
   */
  stallGraceMs: number;
}

const defaultGenerationOptions: GenerationOptions = {
  idleTimeoutMs: 60_000,
  retryMs: 200,
  flushTickMs: 20,
  foldMs: 1_000,
  historyLimit: 100,
  stallGraceMs: 60_000,
};

export interface GenerationDeps {
  repo: AnswerRepository;
  budgets: ChatBudgets;
  bus: Bus;
  images: ImageAccess;
  log: FastifyBaseLogger;
  now: () => number;
  /** This process among the instances: answers name it, and live as long as its heartbeat. */
  instances: Instances;
  /** The conversation's documents (issue 18): passages before an answer, its citations after. */
  documents?: Pick<ChatDocsService, 'retrieve' | 'cite'>;
  options?: Partial<GenerationOptions>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Server-owned generation (DESIGN 8): each answer is a job that calls the provider and keeps the
 * text in memory. The message row names this instance as its writer, so the answer lives as long
 * as this instance (DESIGN 2; the answers of dead writers are ended by `AbandonedAnswers`). A
 * writer that only lost the database for a while keeps streaming into memory and writes when the
 * database answers again (issue 26).
 *
 * Text is written before it is shown: a flusher writes the new text of every live job (all of
 * them in a few statements) as soon as it arrives, and only once that write has committed
 * publishes the same text, here and on `chat:<messageId>`. Text that arrives during a write goes
 * in the next, so the writes keep pace with the database (one write of latency on the first
 * token) and batch themselves under load. A writer killed at any moment has shown nobody a word
 * the database lacks. A closed browser tab does not stop a job; only stop, an error, a time-out,
 * shutdown, or another instance ending the answer does.
 */
export class Generations {
  private readonly jobs = new Map<number, Job>();
  private readonly options: GenerationOptions;
  private readonly flusher: AnswerFlusher;
  private readonly ends: TransactionGroup<ChatSchema>;
  private readonly endBumps = new DeferredBumps();
  /** The one sweep that ends answers whose provider fell silent (no timer per token). */
  private idleSweep: NodeJS.Timeout | undefined;
  private unsubscribeStop: (() => Promise<void>) | undefined;
  private closed = false;
  private readonly presence: WriterPresence;
  private readonly abandoned: AbandonedAnswers;

  constructor(private readonly deps: GenerationDeps) {
    this.options = { ...defaultGenerationOptions, ...deps.options };
    // The counters of answers ending together are bumped once, at the end of their transaction.
    this.ends = new TransactionGroup(deps.repo.db, {
      closing: (trx) => this.endBumps.apply(trx),
    });
    this.flusher = new AnswerFlusher({
      ...deps,
      instanceId: deps.instances.id,
      jobs: this.jobs,
      tickMs: this.options.flushTickMs,
      retryMs: this.options.retryMs,
      foldMs: this.options.foldMs,
    });
    this.presence = new WriterPresence(
      deps.bus,
      deps.instances,
      deps.log,
      deps.now,
      this.options.stallGraceMs,
    );
    this.abandoned = new AbandonedAnswers({
      ...deps,
      presence: this.presence,
      writesHere: (messageId) => this.jobs.has(messageId),
      ended: () => this.flusher.tidy(),
    });
  }

  /** Most history messages a prompt considers. */
  get historyLimit(): number {
    return this.options.historyLimit;
  }

  /** The writer this instance records on the answers it writes. */
  get instanceId(): string {
    return this.deps.instances.id;
  }

  /** Listens for stop commands, ends answers dead instances left behind, and keeps sweeping. */
  async init(): Promise<void> {
    this.unsubscribeStop = await this.deps.bus.subscribe(STOP_CHANNEL, (message) => {
      this.jobs.get(Number(message))?.stop('stop');
    });
    await this.presence.start();
    await this.abandoned.start();
  }

  get size(): number {
    return this.jobs.size;
  }

  get(messageId: number): Job | undefined {
    return this.jobs.get(messageId);
  }

  /**
   * Starts writing the answer in the background, from its plan (the one the budgets reserved
   * for). Its row must already be streaming with this instance as its writer (`instanceId`),
   * written in the same transaction that created it.
   */
  start(request: GenerationRequest, plan: AnswerPlan): Job {
    // The plan is used once, for the prompt: the job does not keep it.
    const job = new Job(request);
    // Each answer is started once: a regenerated answer is a new message (versions.ts).
    this.jobs.set(job.messageId, job);
    this.sweepIdleAnswers();
    job.finished = this.run(job, plan);
    return job;
  }

  /** Stops an answer wherever it is being written; resolves once it has ended. */
  async stop(messageId: number): Promise<void> {
    const local = this.jobs.get(messageId);
    if (local) {
      local.stop('stop');
      await local.finished;
      return;
    }
    await this.deps.bus.publish(STOP_CHANNEL, String(messageId));
    const deadline = Date.now() + 5_000;
    let told = Date.now();
    while (Date.now() < deadline) {
      // The writer's instance may have been resubscribing (Redis came back) when it was told:
      // it is told again until the answer ends.
      if (Date.now() - told >= 500) {
        told = Date.now();
        await this.deps.bus.publish(STOP_CHANNEL, String(messageId)).catch(() => undefined);
      }
      const row = await this.deps.repo.findState(messageId);
      if (!row || row.status !== 'streaming') return;
      if (!(await this.isWritten(row))) {
        await this.endAbandoned(row.id, row.writerInstance, 'stopped', '');
        return;
      }
      await sleep(50);
    }
  }

  /**
   * Whether a live instance is writing this streaming answer: its writer's heartbeat is fresh, or
   * it is running but out of touch with the database for less than the grace.
   */
  isWritten(row: Pick<MessageRow, 'id' | 'writerInstance'>): Promise<boolean> {
    return this.abandoned.isWritten(row);
  }

  /** Ends an answer nobody is writing any more (abandoned.ts). */
  endAbandoned(
    messageId: number,
    writer: string | null,
    status: 'interrupted' | 'stopped' = 'interrupted',
    reason?: string,
  ): Promise<void> {
    return this.abandoned.end(messageId, writer, status, reason);
  }

  /** Aborts every job as interrupted and waits for them to be written. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.idleSweep);
    this.idleSweep = undefined;
    const sweepsEnded = this.abandoned.stop();
    const running = [...this.jobs.values()];
    for (const job of running) job.stop('shutdown');
    await Promise.allSettled(running.map((job) => job.finished));
    await Promise.allSettled([this.flusher.running, sweepsEnded]);
    await this.presence.stop();
    await this.unsubscribeStop?.();
  }

  /**
   * Keeps one sweep going while this instance writes answers: it stops (reason `timeout`) every
   * answer whose provider has been silent for `idleTimeoutMs` (`Job.heardAt`), within a quarter
   * of that, at most a second, late.
   */
  private sweepIdleAnswers(): void {
    if (this.idleSweep || this.closed) return;
    const { idleTimeoutMs } = this.options;
    this.idleSweep = setInterval(
      () => {
        if (this.jobs.size === 0) {
          clearInterval(this.idleSweep);
          this.idleSweep = undefined;
          return;
        }
        const now = performance.now();
        for (const job of this.jobs.values()) {
          if (job.heardAt !== undefined && now - job.heardAt >= idleTimeoutMs) job.stop('timeout');
        }
      },
      Math.max(10, Math.min(1_000, idleTimeoutMs / 4)),
    );
    this.idleSweep.unref();
  }

  /**
   * Has the flusher write the text still pending (the last tokens are shown with the next tick's
   * write, not after the citations' and the end's writes), stores the citations, then writes the
   * answer's end with its full text and publishes the end (and whatever text the flusher could
   * not write). A failed write is tried again (the job stays live here meanwhile, so no sweep
   * takes it) until it succeeds, another instance has ended the answer, or this instance shuts
   * down.
   */
  private async finish(
    job: Job,
    outcome: Outcome,
    retrieved: Retrieved | undefined,
  ): Promise<void> {
    job.outcome = outcome;
    await this.flusher.drain(job);
    await this.cite(job, retrieved);
    job.ending = true;
    await job.writing;
    for (;;) {
      if (job.lost || this.jobs.get(job.messageId) !== job) {
        await this.release(job);
        return;
      }
      const seq = job.content.length > job.stored ? job.seq + 1 : job.seq;
      try {
        // Answers ending together share a transaction (a thousand end within a second under load).
        const ended = await this.ends.run(async (trx) => {
          const done = await new AnswerRepository(trx).finishMessage(
            job.messageId,
            this.instanceId,
            {
              content: job.content,
              seq,
              status: outcome.status,
              error: outcome.error,
              promptTokens: outcome.usage.promptTokens,
              completionTokens: outcome.usage.completionTokens,
              tokensEstimated: outcome.usage.estimated ? 1 : 0,
              updatedAt: this.deps.now(),
            },
          );
          if (done) {
            await this.deps.budgets.settle(
              trx,
              job.messageId,
              outcome.usage.promptTokens,
              outcome.usage.completionTokens,
              outcome.usage.estimated,
              this.endBumps.of(trx),
            );
          }
          return done;
        });
        if (!ended) {
          job.lose();
          continue;
        }
      } catch (thrown) {
        this.deps.log.error(
          { err: thrown, messageId: job.messageId },
          'saving a chat answer failed',
        );
        if (this.closed) {
          // The next instance's sweep ends it from what was stored, which is what was shown.
          this.jobs.delete(job.messageId);
          job.listeners.clear();
          return;
        }
        await sleep(this.options.retryMs);
        continue;
      }
      this.jobs.delete(job.messageId);
      this.flusher.tidy();
      tapAnswerTokens(outcome.usage.promptTokens, outcome.usage.completionTokens);
      if (seq > job.seq) {
        this.flusher.emit(job, {
          t: 'd',
          seq,
          offset: job.stored,
          text: job.content.slice(job.stored),
        });
        job.stored = job.content.length;
        job.seq = seq;
      }
      this.flusher.emit(job, { t: 'end', seq, ...outcome });
      job.listeners.clear();
      return;
    }
  }

  /**
   * Lets go of an answer another instance ended: whoever ended it told the bus; the clients
   * attached here hear the end as it was stored, after exactly the text that was stored. An end
   * stored as "the server restarted" is put right: this instance was alive all along, only out
   * of touch with the database (or with the bus too) for longer than the others wait.
   */
  private async release(job: Job): Promise<void> {
    if (this.jobs.get(job.messageId) === job) this.jobs.delete(job.messageId);
    let row = await this.deps.repo.findMessage(job.messageId).catch(() => undefined);
    if (job.lost && row?.status === 'interrupted' && row.error === EndMessages.interrupted) {
      const corrected = await this.deps.repo
        .replaceEndReason(row.id, EndMessages.interrupted, EndMessages.lostTouch)
        .catch(() => false);
      if (corrected) row = { ...row, error: EndMessages.lostTouch };
    }
    const event: JobEvent =
      row && row.status !== 'streaming'
        ? {
            t: 'end',
            seq: row.seq,
            status: row.status,
            error: row.error,
            usage: {
              promptTokens: row.promptTokens,
              completionTokens: row.completionTokens,
              estimated: row.tokensEstimated === 1,
            },
          }
        : {
            t: 'end',
            seq: job.seq,
            status: 'interrupted',
            error: EndMessages.interrupted,
            usage: {
              promptTokens: 0,
              completionTokens: estimateTokens(job.content.slice(0, job.stored)),
              estimated: true,
            },
          };
    for (const listener of [...job.listeners]) listener(event);
    job.listeners.clear();
  }

  /**
   * The passages of the conversation's documents for the question being answered; none when it
   * holds no documents, or when finding them fails (the answer goes on without them).
   */
  private async retrieve(job: Job, question: string) {
    const documents = this.deps.documents;
    if (!documents || !job.request.withDocuments) return undefined;
    try {
      return await documents.retrieve(job.request.conversationId, question);
    } catch (error) {
      this.deps.log.warn({ err: error, messageId: job.messageId }, 'finding passages failed');
      return undefined;
    }
  }

  /** Stores the passages the answer cites (before its end is written and told). */
  private async cite(job: Job, retrieved: Retrieved | undefined): Promise<void> {
    if (!this.deps.documents || job.lost) return;
    try {
      await this.deps.documents.cite(job.messageId, retrieved, job.content);
    } catch (error) {
      this.deps.log.warn({ err: error, messageId: job.messageId }, 'storing citations failed');
    }
  }

  private async run(job: Job, plan: AnswerPlan): Promise<void> {
    const { request } = job;
    let retrieved: Retrieved | undefined;
    const outcome = await readAnswer(job, {
      connection: request.model.connection,
      prompt: async () => {
        retrieved = await this.retrieve(job, plan.question);
        return buildPrompt(request.systemPrompt, plan.prompt, this.deps.images, retrieved?.text);
      },
      idleTimeoutMs: this.options.idleTimeoutMs,
      log: this.deps.log,
      onText: (text) => this.flusher.append(job, text),
    });
    await this.finish(job, outcome, retrieved);
  }
}
