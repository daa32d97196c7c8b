import type { MessageStatus, StreamUsage } from '@atrium/shared/contract/chat';
import type { GenerationParams } from '@atrium/shared/contract/chat';
import { message } from '@atrium/shared/messages/catalogue';
import type { ResolvedModel } from '../../ai/index';
import { storedError } from '../chat-texts';
import { MAX_ANSWER_CHARS } from '../chat.tables';
import { FLOOR_RATES, TokenCounter, whole } from './tokens';

export type EndStatus = Exclude<MessageStatus, 'streaming'>;

/** What travels on `chat:<messageId>` and reaches local listeners. */
export type JobEvent =
  | { t: 'd'; seq: number; offset: number; text: string }
  | { t: 'end'; seq: number; status: EndStatus; error: string; usage: StreamUsage };

export const channelOf = (messageId: number) => `chat:${messageId}`;

/** Why an answer ended early, as `chat_messages.error` stores it (chat-texts.ts). */
export const EndMessages = {
  interrupted: storedError(message('chat.answerInterrupted')),
  /**
   * The writer was alive but could not reach the database for longer than others wait: it was
   * taken over, or it learned on coming back that it had been.
   */
  lostTouch: storedError(message('chat.answerLostTouch')),
  shutdown: storedError(message('chat.answerShutdown')),
  length: storedError(message('chat.answerLength')),
  idle: (seconds: number) => storedError(message('chat.answerIdle', { seconds })),
  noStart: (seconds: number) => storedError(message('chat.answerNoStart', { seconds })),
} as const;

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
}

/**
 * `lost`: another instance ended the answer (it took this one for dead). `length`: the answer
 * reached its max_tokens (as estimated) or MAX_ANSWER_CHARS and the provider was still sending.
 */
export type EndReason = 'stop' | 'timeout' | 'shutdown' | 'lost' | 'length';

export interface Outcome {
  status: EndStatus;
  error: string;
  usage: StreamUsage;
}

/**
 * A provider may stream U+0000 like any other character, and its error text is its own; text
 * columns of PostgreSQL cannot hold it, and one such write would fail the whole batch of a flush.
 */
export const storable = (text: string) => (text.includes('\0') ? text.replace(/\0/g, '') : text);

/** One answer being written, owned by this instance. */
export class Job {
  /** Everything the provider sent so far (at most its limits: see `receive`). */
  content = '';
  /** How much of `content` is in the database; only that much has been published. */
  stored = 0;
  /** Deltas published so far (the event id clients see). */
  seq = 0;
  endReason: EndReason | undefined;
  /** Another instance ended the answer (it took this one for dead): nothing more is written. */
  lost = false;
  /**
   * Set once the provider's stream is over: the flusher writes the text still pending (so that
   * the last tokens are shown as soon as any, not after the end's own write), then `finish`
   * writes the end.
   */
  outcome: Outcome | undefined;
  /** Set once `finish` writes the end: from then on the flusher takes none of the text. */
  ending = false;
  /**
   * When the provider was last heard from (`performance.now()`), while its stream is read: the
   * generations' idle sweep ends the answer once this is too old.
   */
  heardAt: number | undefined;
  /** The write in flight that holds part of `content`. */
  writing: Promise<unknown> = Promise.resolve();
  readonly controller = new AbortController();
  readonly listeners = new Set<(event: JobEvent) => void>();
  finished: Promise<void> = Promise.resolve();
  /** `estimateTokens(content)`, kept as it grows: what an answer without usage is settled at. */
  private readonly counter = new TokenCounter();
  /** `floorTokens(content)`: what the answer is cut at (its max_tokens) and settled at least. */
  private readonly floor = new TokenCounter(FLOOR_RATES);

  constructor(readonly request: GenerationRequest) {}

  get messageId(): number {
    return this.request.messageId;
  }

  /** The estimate of the text received. */
  get estimatedTokens(): number {
    return this.counter.tokens;
  }

  /** The fewest tokens the text received can have cost, which it is settled at no less than. */
  get floorTokens(): number {
    return this.floor.tokens;
  }

  /**
   * Takes text the provider sent, up to the answer's limits: the max_tokens it was given (its
   * budget reservation, counted by the floor count so that no honest answer is cut before its
   * provider would end it) and MAX_ANSWER_CHARS. A provider that
   * ignores max_tokens is stopped there: the rest is not read, and never billed. Answers whether
   * any text was taken.
   */
  receive(text: string): boolean {
    if (this.endReason) return false;
    let take = whole(text, Math.min(text.length, MAX_ANSWER_CHARS - this.content.length));
    const maxTokens = this.request.params.max_tokens;
    if (maxTokens !== undefined) take = Math.min(take, this.floor.fit(text, maxTokens));
    const piece = take < text.length ? text.slice(0, take) : text;
    this.counter.add(piece);
    this.floor.add(piece);
    this.content += piece;
    const full =
      take < text.length ||
      this.content.length >= MAX_ANSWER_CHARS ||
      (maxTokens !== undefined && this.floor.tokens >= maxTokens);
    if (full) this.stop('length');
    return piece.length > 0;
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
