import type { GenerationParams, MessageStatus, StreamUsage } from '@atrium/shared/contract/chat';
import type { FastifyBaseLogger } from 'fastify';
import type OpenAI from 'openai';
import type { Bus } from '../../bus/index';
import {
  describeProviderError,
  openAiClient,
  scrubKey,
  streamCompletion,
  type ChatCompletionMessageParam,
  type ProviderConnection,
} from '../ai/openai-client';
import type { ResolvedModel } from '../ai/providers.service';
import type { ChatRepository } from './chat.repository';
import type { MessageRow } from './chat.tables';
import type { ImageAccess } from './images';
import { estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './tokens';
import type { UsageRepository } from './usage.repository';

/** What travels on `chat:<messageId>` and reaches local listeners. */
export type JobEvent =
  | { t: 'd'; seq: number; offset: number; text: string }
  | {
      t: 'end';
      seq: number;
      status: Exclude<MessageStatus, 'streaming'>;
      error: string;
      usage: StreamUsage;
    };

export const channelOf = (messageId: number) => `chat:${messageId}`;
export const ownerKeyOf = (messageId: number) => `chat:owner:${messageId}`;
/** One channel for every instance: the owner of the named message aborts it. */
export const STOP_CHANNEL = 'chat:stop';

export const Messages = {
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
  /** How often streamed content is written to the database. */
  flushIntervalMs: number;
  /** How long an instance's claim on a stream lives unless renewed (crash detection). */
  ownerTtlMs: number;
  /** Most history messages considered for the prompt. */
  historyLimit: number;
}

export const defaultGenerationOptions: GenerationOptions = {
  idleTimeoutMs: 60_000,
  flushIntervalMs: 200,
  ownerTtlMs: 30_000,
  historyLimit: 100,
};

export interface GenerationDeps {
  repo: ChatRepository;
  usage: UsageRepository;
  bus: Bus;
  images: ImageAccess;
  log: FastifyBaseLogger;
  now: () => number;
  /** Names this process in stream ownership claims. */
  instanceId: string;
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
}

type EndReason = 'stop' | 'timeout' | 'shutdown';

/** One answer being written, owned by this instance. */
export class Job {
  content = '';
  seq = 0;
  dirty = false;
  endReason: EndReason | undefined;
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
}

/**
 * A provider may stream U+0000 like any other character, and its error text is its own; text
 * columns of PostgreSQL cannot hold it, and one such write would fail the whole batch of a flush.
 */
const storable = (text: string) => text.replace(/\0/g, '');

const DEFAULT_CONTEXT_TOKENS = 8192;
const DEFAULT_ANSWER_TOKENS = 1024;
const MAX_IMAGES_IN_PROMPT = 4;

/**
 * Server-owned generation (DESIGN 8): each answer is a job that calls the provider, keeps the
 * text in memory, writes it to the database every `flushIntervalMs` (all live jobs in a few
 * statements), and publishes every delta on `chat:<messageId>` so any instance can serve a
 * re-attaching client. A closed browser tab does not stop a job; only stop, an error, a
 * time-out or shutdown does.
 */
export class Generations {
  private readonly jobs = new Map<number, Job>();
  private readonly options: GenerationOptions;
  private readonly clients = new Map<string, OpenAI>();
  private flushTimer: NodeJS.Timeout | undefined;
  private ownerTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private unsubscribeStop: (() => Promise<void>) | undefined;
  private closed = false;

  constructor(private readonly deps: GenerationDeps) {
    this.options = { ...defaultGenerationOptions, ...deps.options };
  }

  /** Listens for stop commands and ends streams a dead instance left behind. */
  async init(): Promise<void> {
    this.unsubscribeStop = await this.deps.bus.subscribe(STOP_CHANNEL, (message) => {
      this.jobs.get(Number(message))?.stop('stop');
    });
    await this.recoverOrphans();
  }

  get size(): number {
    return this.jobs.size;
  }

  get(messageId: number): Job | undefined {
    return this.jobs.get(messageId);
  }

  /** Claims the message for this instance, then starts writing the answer in the background. */
  async start(request: GenerationRequest): Promise<Job> {
    const job = new Job(request);
    this.jobs.set(job.messageId, job);
    await this.claim(job.messageId);
    this.ensureTimers();
    job.finished = this.run(job);
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
      if ((await this.deps.bus.get(ownerKeyOf(messageId))) === undefined) {
        await this.endOrphan(row, 'stopped', '');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Whether some live instance is still writing this message. */
  async isOwned(messageId: number): Promise<boolean> {
    if (this.jobs.has(messageId)) return true;
    return (await this.deps.bus.get(ownerKeyOf(messageId))) !== undefined;
  }

  /**
   * Ends a message no instance is writing any more (its owner died): it keeps what was
   * persisted, is marked interrupted, and listeners everywhere hear the end.
   */
  async endOrphan(
    row: MessageRow,
    status: 'interrupted' | 'stopped' = 'interrupted',
    error: string = Messages.interrupted,
  ): Promise<void> {
    const completionTokens = estimateTokens(row.content);
    const ended = await this.deps.repo.finishMessage(row.id, {
      status,
      error,
      completionTokens,
      tokensEstimated: 1,
      updatedAt: this.deps.now(),
    });
    if (!ended) return;
    await this.deps.usage.setTokens(row.id, row.promptTokens, completionTokens, true);
    const event: JobEvent = {
      t: 'end',
      seq: row.seq,
      status,
      error,
      usage: { promptTokens: row.promptTokens, completionTokens, estimated: true },
    };
    await this.deps.bus.publish(channelOf(row.id), JSON.stringify(event));
  }

  /** Aborts every job as interrupted and waits for them to be written. */
  async close(): Promise<void> {
    this.closed = true;
    const running = [...this.jobs.values()];
    for (const job of running) job.stop('shutdown');
    await Promise.allSettled(running.map((job) => job.finished));
    await this.flushing;
    clearInterval(this.flushTimer);
    clearInterval(this.ownerTimer);
    this.flushTimer = undefined;
    this.ownerTimer = undefined;
    await this.unsubscribeStop?.();
  }

  private async recoverOrphans(): Promise<void> {
    for (const row of await this.deps.repo.listStreaming()) {
      if (!(await this.isOwned(row.id))) await this.endOrphan(row);
    }
  }

  private claim(messageId: number): Promise<void> {
    return this.deps.bus.set(ownerKeyOf(messageId), this.deps.instanceId, this.options.ownerTtlMs);
  }

  private ensureTimers(): void {
    this.flushTimer ??= setInterval(() => void this.flush(), this.options.flushIntervalMs);
    this.ownerTimer ??= setInterval(
      () => {
        for (const id of this.jobs.keys()) {
          this.claim(id).catch((error: unknown) =>
            this.deps.log.warn(
              { err: error, messageId: id },
              'renewing a chat stream claim failed',
            ),
          );
        }
      },
      Math.max(1_000, Math.floor(this.options.ownerTtlMs / 3)),
    );
    this.flushTimer.unref();
    this.ownerTimer.unref();
  }

  private stopTimersWhenIdle(): void {
    if (this.jobs.size > 0) return;
    clearInterval(this.flushTimer);
    clearInterval(this.ownerTimer);
    this.flushTimer = undefined;
    this.ownerTimer = undefined;
  }

  /** Writes the content of every job that changed since the last flush. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    const dirty = [...this.jobs.values()].filter((job) => job.dirty);
    if (dirty.length === 0) return Promise.resolve();
    const snapshots = dirty.map((job) => {
      job.dirty = false;
      return { id: job.messageId, content: job.content, seq: job.seq };
    });
    this.flushing = this.deps.repo
      .flushContent(snapshots, this.deps.now())
      .catch((error: unknown) => {
        for (const job of dirty) job.dirty = true;
        this.deps.log.warn({ err: error }, 'writing streamed chat content failed');
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
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
    const offset = job.content.length;
    job.content += text;
    job.seq += 1;
    job.dirty = true;
    this.emit(job, { t: 'd', seq: job.seq, offset, text });
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
   * The prompt: the room's system prompt, then as much recent history as fits the model's
   * context (always the newest message), with the newest images for vision models.
   */
  private async buildPrompt(request: GenerationRequest): Promise<{
    messages: ChatCompletionMessageParam[];
    promptTokens: number;
  }> {
    const { model, systemPrompt, params } = request;
    const rows = await this.deps.repo.history(
      request.conversationId,
      request.messageId,
      this.options.historyLimit,
    );
    const context = model.contextLength > 0 ? model.contextLength : DEFAULT_CONTEXT_TOKENS;
    let budget = context - (params.max_tokens ?? Math.min(DEFAULT_ANSWER_TOKENS, context / 4));
    let promptTokens = 0;
    if (systemPrompt) {
      const cost = estimateTokens(systemPrompt) + MESSAGE_OVERHEAD_TOKENS;
      budget -= cost;
      promptTokens += cost;
    }
    const chosen: { row: MessageRow; images: string[] }[] = [];
    let imagesLeft = model.vision ? MAX_IMAGES_IN_PROMPT : 0;
    for (const row of rows) {
      if (row.role === 'assistant' && row.content === '') continue;
      const paths = row.role === 'user' ? parseImages(row.images).slice(0, imagesLeft) : [];
      const cost =
        estimateTokens(row.content) + MESSAGE_OVERHEAD_TOKENS + paths.length * IMAGE_TOKENS;
      if (chosen.length > 0 && cost > budget) break;
      budget -= cost;
      promptTokens += cost;
      imagesLeft -= paths.length;
      chosen.push({ row, images: paths });
    }
    chosen.reverse();

    const messages: ChatCompletionMessageParam[] = [];
    if (systemPrompt) messages.push({ role: 'system', content: systemPrompt });
    for (const { row, images } of chosen) {
      if (row.role === 'assistant') {
        messages.push({ role: 'assistant', content: row.content });
        continue;
      }
      const urls = (await Promise.all(images.map((p) => this.deps.images.dataUrl(p)))).filter(
        (url): url is string => url !== undefined,
      );
      messages.push(
        urls.length === 0
          ? { role: 'user', content: row.content }
          : {
              role: 'user',
              content: [
                { type: 'text', text: row.content },
                ...urls.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
              ],
            },
      );
    }
    return { messages, promptTokens };
  }

  private async run(job: Job): Promise<void> {
    const { request } = job;
    const apiKey = request.model.connection.apiKey;
    let idleTimer: NodeJS.Timeout | undefined;
    let started = false;
    const armIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => job.stop('timeout'), this.options.idleTimeoutMs);
    };
    let status: Exclude<MessageStatus, 'streaming'> = 'done';
    let error = '';
    let promptTokens = 0;
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    try {
      const prompt = await this.buildPrompt(request);
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
    await this.finish(job, status, error, tokens);
  }

  private async finish(
    job: Job,
    status: Exclude<MessageStatus, 'streaming'>,
    error: string,
    usage: StreamUsage,
  ): Promise<void> {
    job.dirty = false;
    try {
      await this.flushing;
      await this.deps.repo.finishMessage(job.messageId, {
        content: job.content,
        seq: job.seq,
        status,
        error,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        tokensEstimated: usage.estimated ? 1 : 0,
        updatedAt: this.deps.now(),
      });
      await this.deps.usage.setTokens(
        job.messageId,
        usage.promptTokens,
        usage.completionTokens,
        usage.estimated,
      );
      await this.deps.bus.del(ownerKeyOf(job.messageId));
    } catch (thrown) {
      this.deps.log.error({ err: thrown, messageId: job.messageId }, 'saving a chat answer failed');
    }
    this.jobs.delete(job.messageId);
    this.emit(job, { t: 'end', seq: job.seq, status, error, usage });
    job.listeners.clear();
    if (!this.closed) this.stopTimersWhenIdle();
  }
}

export function parseImages(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
