import type { GenerationParams, MessageStatus, StreamUsage } from '@atrium/shared/contract/chat';
import type { FastifyBaseLogger } from 'fastify';
import type OpenAI from 'openai';
import type { Bus } from '../../bus/index';
import type { Instances } from '../../instances/instances';
import {
  describeProviderError,
  openAiClient,
  scrubKey,
  streamCompletion,
  type ProviderConnection,
} from '../ai/index';
import type { ResolvedModel } from '../ai/index';
import { ChatRepository } from './chat.repository';
import type { MessageRow } from './chat.tables';
import type { ImageAccess } from '../files/index';
import { buildPrompt, type PromptRow } from './prompt';
import { estimateTokens } from './tokens';
import type { ChatBudgets } from './budgets';
import type { ChatDocsService, Retrieved } from '../chat-docs/index';
import { tapAnswerTokens } from '../../ops/taps';

type EndStatus = Exclude<MessageStatus, 'streaming'>;

/** What travels on `chat:<messageId>` and reaches local listeners. */
export type JobEvent =
  | { t: 'd'; seq: number; offset: number; text: string }
  | { t: 'end'; seq: number; status: EndStatus; error: string; usage: StreamUsage };

export const channelOf = (messageId: number) => `chat:${messageId}`;
/** One channel for every instance: the owner of the named message aborts it. */
const STOP_CHANNEL = 'chat:stop';

const Messages = {
  interrupted: 'The answer was interrupted (the server restarted). What was written is kept.',
  shutdown: 'The answer was interrupted because the server shut down. What was written is kept.',
  idle: (seconds: number) =>
    `The model stopped answering for ${seconds} seconds, so the answer was cut off. Try again.`,
  noStart: (seconds: number) =>
    `The model did not start answering within ${seconds} seconds. Try again later.`,
} as const;

export interface GenerationOptions {
  /** Silence from the provider (before the first token or between two) that ends the answer. */
  idleTimeoutMs: number;
  /** After a failed write of an answer, how long before trying again. */
  retryMs: number;
  /** Most history messages considered for the prompt. */
  historyLimit: number;
}

const defaultGenerationOptions: GenerationOptions = {
  idleTimeoutMs: 60_000,
  retryMs: 200,
  historyLimit: 100,
};

export interface GenerationDeps {
  repo: ChatRepository;
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

export interface GenerationRequest {
  messageId: number;
  conversationId: number;
  /** Whose answer it is: a live answer's owner is known without asking the database. */
  memberId: number;
  model: ResolvedModel;
  systemPrompt: string;
  params: GenerationParams;
  /**
   * Passages of the conversation's documents may be given: the budget reservation covered
   * RETRIEVAL_MAX_TOKENS for them (a document attached after the send waits for the next one).
   */
  withDocuments: boolean;
  /**
   * The history the send planned the prompt from (newest first, the question included), so the
   * answer does not read it again on the way to its first token; read from the database when
   * absent.
   */
  history?: readonly PromptRow[];
}

/** `lost`: another instance ended the answer (it took this one for dead). */
type EndReason = 'stop' | 'timeout' | 'shutdown' | 'lost';

interface Outcome {
  status: EndStatus;
  error: string;
  usage: StreamUsage;
}

/** One answer being written, owned by this instance. */
export class Job {
  /** Everything the provider sent so far. */
  content = '';
  /** How much of `content` is in the database; only that much has been published. */
  stored = 0;
  /** Deltas published so far (the event id clients see). */
  seq = 0;
  endReason: EndReason | undefined;
  /** Another instance ended the answer (it took this one for dead): nothing more is written. */
  lost = false;
  /** Set once the provider's stream is over: the rest is written by `finish`, not the flusher. */
  outcome: Outcome | undefined;
  /** The write in flight that holds part of `content`. */
  writing: Promise<unknown> = Promise.resolve();
  readonly controller = new AbortController();
  readonly listeners = new Set<(event: JobEvent) => void>();
  finished: Promise<void> = Promise.resolve();

  constructor(readonly request: GenerationRequest) {}

  get messageId(): number {
    return this.request.messageId;
  }

  stop(reason: EndReason): void {
    this.endReason ??= reason;
    this.controller.abort();
  }

  lose(): void {
    this.lost = true;
    this.stop('lost');
  }
}

/**
 * A provider may stream U+0000 like any other character, and its error text is its own; text
 * columns of PostgreSQL cannot hold it, and one such write would fail the whole batch of a flush.
 */
const storable = (text: string) => text.replace(/\0/g, '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Server-owned generation (DESIGN 8): each answer is a job that calls the provider and keeps the
 * text in memory. The message row names this instance as its writer, so the answer lives exactly
 * as long as this instance's heartbeat (DESIGN 2): every instance sweeps once a heartbeat for
 * answers whose writer is dead and ends them as interrupted.
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
  private readonly clients = new Map<string, OpenAI>();
  private flushQueued = false;
  private flushing: Promise<void> | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private unsubscribeStop: (() => Promise<void>) | undefined;
  private closed = false;

  constructor(private readonly deps: GenerationDeps) {
    this.options = { ...defaultGenerationOptions, ...deps.options };
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
    await this.sweep();
    // Once a heartbeat: an answer is ended within a beat of its writer being counted dead.
    this.sweepTimer = setInterval(() => void this.sweep(), this.deps.instances.timing.heartbeatMs);
    this.sweepTimer.unref();
  }

  get size(): number {
    return this.jobs.size;
  }

  get(messageId: number): Job | undefined {
    return this.jobs.get(messageId);
  }

  /**
   * Starts writing the answer in the background. Its row must already be streaming with this
   * instance as its writer (`instanceId`), written in the same transaction that created it.
   */
  start({ history, ...request }: GenerationRequest): Job {
    // The history is used once, for the prompt: the job does not keep it.
    const job = new Job(request);
    // A job still here for the same message lost it to another instance, which has since
    // ended it and let it be regenerated: it must not write over the new answer.
    this.jobs.get(job.messageId)?.lose();
    this.jobs.set(job.messageId, job);
    job.finished = this.run(job, history);
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
    while (Date.now() < deadline) {
      const row = await this.deps.repo.findMessage(messageId);
      if (!row || row.status !== 'streaming') return;
      if (!(await this.isWritten(row))) {
        await this.endAbandoned(row.id, row.writerInstance, 'stopped', '');
        return;
      }
      await sleep(50);
    }
  }

  /** Whether a live instance is writing this streaming answer (its writer's heartbeat is fresh). */
  async isWritten(row: Pick<MessageRow, 'id' | 'writerInstance'>): Promise<boolean> {
    if (this.jobs.has(row.id)) return true;
    return row.writerInstance !== null && this.deps.instances.isAlive(row.writerInstance);
  }

  /**
   * Ends an answer nobody is writing any more (its writer died): it keeps what was stored, which
   * is all any client was shown, is marked interrupted, and listeners everywhere hear the end.
   * Does nothing when the answer has ended or another writer has taken it since.
   */
  async endAbandoned(
    messageId: number,
    writer: string | null,
    status: 'interrupted' | 'stopped' = 'interrupted',
    error: string = Messages.interrupted,
  ): Promise<void> {
    const row = await this.deps.repo.findMessage(messageId);
    if (row?.status !== 'streaming' || row.writerInstance !== writer) return;
    const completionTokens = estimateTokens(row.content);
    const ended = await this.deps.repo.db.transaction().execute(async (trx) => {
      const done = await new ChatRepository(trx).finishMessage(messageId, writer, {
        status,
        error,
        completionTokens,
        tokensEstimated: 1,
        updatedAt: this.deps.now(),
      });
      if (done)
        await this.deps.budgets.settle(
          trx,
          messageId,
          row.promptTokens || undefined,
          completionTokens,
          true,
        );
      return done;
    });
    if (!ended) return;
    const event: JobEvent = {
      t: 'end',
      seq: row.seq,
      status,
      error,
      usage: { promptTokens: row.promptTokens, completionTokens, estimated: true },
    };
    await this.deps.bus.publish(channelOf(messageId), JSON.stringify(event));
  }

  /** Aborts every job as interrupted and waits for them to be written. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweepTimer);
    const running = [...this.jobs.values()];
    for (const job of running) job.stop('shutdown');
    await Promise.allSettled(running.map((job) => job.finished));
    await Promise.allSettled([this.flushing, this.sweeping]);
    await this.unsubscribeStop?.();
  }

  /** Ends the answers of dead writers: one indexed query when there are none. */
  private sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      try {
        const abandoned = await this.deps.repo.abandoned(this.deps.instances.aliveSince());
        for (const { id, writerInstance } of abandoned) {
          // Our own heartbeat is late (the database was slow): others may take these, but
          // nothing here is dead.
          if (this.jobs.has(id)) continue;
          await this.endAbandoned(id, writerInstance);
        }
      } catch (error) {
        this.deps.log.warn({ err: error }, 'ending abandoned chat answers failed');
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }

  private emit(job: Job, event: JobEvent): void {
    for (const listener of [...job.listeners]) listener(event);
    this.deps.bus
      .publish(channelOf(job.messageId), JSON.stringify(event))
      .catch((error: unknown) => {
        this.deps.log.warn(
          { err: error, messageId: job.messageId },
          'publishing a chat delta failed',
        );
      });
  }

  private append(job: Job, text: string): void {
    job.content += text;
    if (this.flushQueued) return;
    this.flushQueued = true;
    // Tokens of any answer that arrive in the same turn of the event loop share one write.
    setImmediate(() => {
      this.flushQueued = false;
      this.flushing ??= this.flushLoop().finally(() => {
        this.flushing = undefined;
      });
    });
  }

  /** Writes and publishes new text until no live job has any; text arriving meanwhile joins. */
  private async flushLoop(): Promise<void> {
    for (;;) {
      const pending = [...this.jobs.values()].filter(
        (job) => !job.outcome && !job.endReason && job.content.length > job.stored,
      );
      if (pending.length === 0) return;
      const write = this.writeAndPublish(pending);
      for (const job of pending) job.writing = write;
      if (!(await write)) await sleep(this.options.retryMs);
    }
  }

  /** One batched write; once it has committed, publishes exactly what it wrote. */
  private async writeAndPublish(jobs: Job[]): Promise<boolean> {
    const snapshots = jobs.map((job) => ({ job, content: job.content, seq: job.seq + 1 }));
    let written: Set<number>;
    try {
      written = await this.deps.repo.flushContent(
        snapshots.map(({ job, content, seq }) => ({ id: job.messageId, content, seq })),
        this.instanceId,
        this.deps.now(),
      );
    } catch (error) {
      this.deps.log.warn({ err: error }, 'writing streamed chat content failed');
      return false;
    }
    for (const { job, content, seq } of snapshots) {
      if (!written.has(job.messageId)) {
        // Ended elsewhere (or deleted): this text is not stored, so it is never shown.
        job.lose();
        continue;
      }
      const offset = job.stored;
      job.stored = content.length;
      job.seq = seq;
      this.emit(job, { t: 'd', seq, offset, text: content.slice(offset) });
    }
    return true;
  }

  /**
   * Writes the answer's end with its full text, then publishes the rest of the text and the end.
   * A failed write is tried again (the job stays live here meanwhile, so no sweep takes it)
   * until it succeeds, another instance has ended the answer, or this instance shuts down.
   */
  private async finish(job: Job, outcome: Outcome): Promise<void> {
    job.outcome = outcome;
    await job.writing;
    for (;;) {
      if (job.lost || this.jobs.get(job.messageId) !== job) {
        await this.release(job);
        return;
      }
      const seq = job.content.length > job.stored ? job.seq + 1 : job.seq;
      try {
        const ended = await this.deps.repo.db.transaction().execute(async (trx) => {
          const done = await new ChatRepository(trx).finishMessage(job.messageId, this.instanceId, {
            content: job.content,
            seq,
            status: outcome.status,
            error: outcome.error,
            promptTokens: outcome.usage.promptTokens,
            completionTokens: outcome.usage.completionTokens,
            tokensEstimated: outcome.usage.estimated ? 1 : 0,
            updatedAt: this.deps.now(),
          });
          if (done) {
            await this.deps.budgets.settle(
              trx,
              job.messageId,
              outcome.usage.promptTokens,
              outcome.usage.completionTokens,
              outcome.usage.estimated,
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
      tapAnswerTokens(outcome.usage.promptTokens, outcome.usage.completionTokens);
      if (seq > job.seq) {
        this.emit(job, { t: 'd', seq, offset: job.stored, text: job.content.slice(job.stored) });
        job.stored = job.content.length;
        job.seq = seq;
      }
      this.emit(job, { t: 'end', seq, ...outcome });
      job.listeners.clear();
      return;
    }
  }

  /**
   * Lets go of an answer another instance ended: whoever ended it told the bus; the clients
   * attached here hear the end as it was stored, after exactly the text that was stored.
   */
  private async release(job: Job): Promise<void> {
    if (this.jobs.get(job.messageId) === job) this.jobs.delete(job.messageId);
    const row = await this.deps.repo.findMessage(job.messageId).catch(() => undefined);
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
            error: Messages.interrupted,
            usage: {
              promptTokens: 0,
              completionTokens: estimateTokens(job.content.slice(0, job.stored)),
              estimated: true,
            },
          };
    for (const listener of [...job.listeners]) listener(event);
    job.listeners.clear();
  }

  private clientFor(connection: ProviderConnection): OpenAI {
    const key = `${connection.baseUrl}\n${connection.apiKey}`;
    let client = this.clients.get(key);
    if (!client) {
      // Keys change rarely; dropping every cached client now and then bounds the map.
      if (this.clients.size >= 50) this.clients.clear();
      client = openAiClient(connection);
      this.clients.set(key, client);
    }
    return client;
  }

  /**
   * The passages of the conversation's documents for the question being answered; none when it
   * holds no documents, or when finding them fails (the answer goes on without them).
   */
  private async retrieve(job: Job, history: readonly PromptRow[]) {
    const documents = this.deps.documents;
    if (!documents || !job.request.withDocuments) return undefined;
    const question = history.find((row) => row.role === 'user')?.content ?? '';
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

  private async run(job: Job, planned: readonly PromptRow[] | undefined): Promise<void> {
    const { request } = job;
    const apiKey = request.model.connection.apiKey;
    let idleTimer: NodeJS.Timeout | undefined;
    let started = false;
    const armIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => job.stop('timeout'), this.options.idleTimeoutMs);
    };
    let status: EndStatus = 'done';
    let error = '';
    let promptTokens = 0;
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    let retrieved: Retrieved | undefined;
    try {
      const history =
        planned ??
        (await this.deps.repo.history(
          request.conversationId,
          request.messageId,
          this.options.historyLimit,
        ));
      retrieved = await this.retrieve(job, history);
      const prompt = await buildPrompt(
        retrieved?.text ? { ...request, documents: retrieved.text } : request,
        history,
        this.deps.images,
      );
      promptTokens = prompt.promptTokens;
      if (job.endReason) throw new Error(job.endReason);
      armIdle();
      const stream = await streamCompletion(
        this.clientFor(request.model.connection),
        {
          model: request.model.name,
          messages: prompt.messages,
          params: { ...request.params },
        },
        job.controller.signal,
      );
      for await (const chunk of stream) {
        armIdle();
        started = true;
        const text = storable(chunk.choices[0]?.delta?.content ?? '');
        if (text) this.append(job, text);
        if (chunk.usage) usage = chunk.usage;
      }
    } catch (thrown) {
      if (!job.endReason) {
        status = 'error';
        error = storable(describeProviderError(thrown, apiKey, job.content.length > 0));
        this.deps.log.warn(
          {
            messageId: job.messageId,
            reason: scrubKey(thrown instanceof Error ? thrown.message : String(thrown), apiKey),
          },
          'chat generation failed',
        );
      }
    } finally {
      clearTimeout(idleTimer);
    }
    // An abort ends the SDK's stream quietly or with an error, depending on when it lands.
    const seconds = Math.round(this.options.idleTimeoutMs / 1000);
    switch (job.endReason) {
      case 'stop':
        status = 'stopped';
        break;
      case 'timeout':
        status = 'error';
        error = started ? Messages.idle(seconds) : Messages.noStart(seconds);
        break;
      case 'shutdown':
        status = 'interrupted';
        error = Messages.shutdown;
        break;
    }
    const tokens: StreamUsage = usage
      ? {
          promptTokens: usage.prompt_tokens,
          completionTokens: usage.completion_tokens,
          estimated: false,
        }
      : { promptTokens, completionTokens: estimateTokens(job.content), estimated: true };
    await this.cite(job, retrieved);
    await this.finish(job, { status, error, usage: tokens });
  }
}
