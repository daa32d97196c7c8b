import type {
  StreamDelta,
  StreamDone,
  StreamError,
  StreamUsage,
} from '@atrium/shared/contract/chat';
import type { FastifyBaseLogger } from 'fastify';
import { message } from '@atrium/shared/messages/catalogue';
import type { Bus } from '../../../bus/index';
import { storedError } from '../chat-texts';
import type { MessageRow } from '../chat.tables';
import type { AnswerRepository, MessageState } from './answers.repository';
import { channelOf, type Job, type JobEvent } from './job';

/**
 * How an answer ended early, for a client: `error` as `chat_messages.error` stores it (a catalogue
 * message, chat-texts.ts), rendered in the client's language by the sink.
 */
export interface StreamEnd {
  status: StreamError['status'];
  error: string;
}

/** Where the events of one attached client go (an SSE response in production). */
export interface StreamSink {
  delta(delta: StreamDelta): void;
  done(done: StreamDone): void;
  error(error: StreamEnd): void;
  ping(): void;
  /** Ends the response. */
  end(): void;
  /** Called once when the client goes away or the stream ends. */
  onClose(cleanup: () => void): void;
}

export interface StreamOptions {
  /**
   * Keep-alive comments; for answers written elsewhere, also a look at the row, in case its end
   * was published while the bus was out of reach.
   */
  heartbeatMs: number;
  /** While the database is behind the live deltas, how often to look again. */
  gapPollMs: number;
  /** How long to wait for the database to catch up before giving up on a gap. */
  gapTimeoutMs: number;
  /**
   * For answers written elsewhere: how often to read the stored text while the bus's pub/sub is
   * down (Redis out of reach), so that the client keeps getting text without the live deltas.
   */
  fallbackPollMs: number;
}

/**
 * The answers this instance writes, and whether the others' writers live (the generation's
 * `Generations`): what a client attaching to an answer needs to know of it.
 */
export interface LiveAnswers {
  get(messageId: number): Job | undefined;
  isWritten(row: Pick<MessageRow, 'id' | 'writerInstance'>): Promise<boolean>;
  endAbandoned(messageId: number, writer: string | null): Promise<void>;
}

const defaultStreamOptions: StreamOptions = {
  heartbeatMs: 15_000,
  gapPollMs: 50,
  gapTimeoutMs: 5_000,
  fallbackPollMs: 250,
};

const usageOf = (row: MessageState): StreamUsage => ({
  promptTokens: row.promptTokens,
  completionTokens: row.completionTokens,
  estimated: row.tokensEstimated === 1,
});

/** Tells the client how the answer ended: `end` as stored, or as its end event says. */
function sendEnd(
  sink: StreamSink,
  end: Pick<MessageRow, 'status' | 'error'> & { usage: StreamUsage },
): void {
  if (end.status === 'done' || end.status === 'stopped') {
    sink.done({ status: end.status, usage: end.usage });
  } else if (end.status === 'error' || end.status === 'interrupted') {
    sink.error({
      status: end.status,
      error: end.error || storedError(message('chat.answerFailed')),
    });
  }
}

/**
 * Attaches a client to an answer (DESIGN 8): first what is stored past the client's `offset`,
 * then live deltas, never a gap or a repeat. Deltas are published only once stored, so a client
 * never holds text the database lacks. On the instance writing the answer the text comes from
 * memory; on any other it comes from the database plus the bus channel (subscribed before the
 * read, so nothing published in between is missed). An answer whose writer is dead is ended on
 * the spot; one whose writer dies while followed ends when any instance's sweep ends it.
 * While the bus's pub/sub is down (issue 26) the stored text is read every `fallbackPollMs`
 * instead, and once more when pub/sub is back, so the client misses nothing in between.
 */
export class ChatStreams {
  private readonly options: StreamOptions;
  private readonly open = new Set<StreamSink>();

  constructor(
    private readonly deps: {
      repo: AnswerRepository;
      bus: Bus;
      generations: LiveAnswers;
      log: FastifyBaseLogger;
      options?: Partial<StreamOptions>;
    },
  ) {
    this.options = { ...defaultStreamOptions, ...deps.options };
  }

  /** Clients attached to an answer's event stream on this instance (the operators' metrics). */
  get watching(): number {
    return this.open.size;
  }

  /** The member whose answer this instance is writing, if it is writing it. */
  liveOwner(messageId: number): number | undefined {
    return this.deps.generations.get(messageId)?.request.memberId;
  }

  /** Ends every attached client's response, without a final event. */
  close(): void {
    for (const sink of [...this.open]) sink.end();
  }

  async attach(messageId: number, offset: number, sink: StreamSink): Promise<void> {
    this.open.add(sink);
    sink.onClose(() => this.open.delete(sink));
    const job = this.deps.generations.get(messageId);
    if (job) {
      this.attachLocal(job.content.slice(0, job.stored), job.seq, offset, sink, (listener) => {
        job.listeners.add(listener);
        return () => job.listeners.delete(listener);
      });
      return;
    }
    await this.attachRemote(messageId, offset, sink);
  }

  private attachLocal(
    content: string,
    seq: number,
    offset: number,
    sink: StreamSink,
    listen: (listener: (event: JobEvent) => void) => () => void,
  ): void {
    // A client ahead of what is stored holds another answer (regenerated meanwhile): it starts over.
    const from = offset <= content.length ? offset : 0;
    if (from < content.length) sink.delta({ seq, offset: from, text: content.slice(from) });
    const heartbeat = setInterval(() => sink.ping(), this.options.heartbeatMs);
    const unlisten = listen((event) => {
      if (event.t === 'd') {
        sink.delta({ seq: event.seq, offset: event.offset, text: event.text });
        return;
      }
      sendEnd(sink, event);
      sink.end();
    });
    sink.onClose(() => {
      clearInterval(heartbeat);
      unlisten();
    });
  }

  private async attachRemote(messageId: number, offset: number, sink: StreamSink): Promise<void> {
    const { repo, bus, generations } = this.deps;
    const queue: JobEvent[] = [];
    let wake: (() => void) | undefined;
    let closed = false;
    // Taken before subscribing: an outage from here on means a later read of the row.
    let outagesSeen = bus.pubsub().outages;
    const unsubscribe = await bus.subscribe(channelOf(messageId), (message) => {
      try {
        queue.push(JSON.parse(message) as JobEvent);
      } catch {
        return;
      }
      wake?.();
    });
    // Started only once the answer turns out to be live; cleared whenever the client leaves.
    const timers: { heartbeat?: NodeJS.Timeout; fallback?: NodeJS.Timeout } = {};
    sink.onClose(() => {
      closed = true;
      clearInterval(timers.heartbeat);
      clearInterval(timers.fallback);
      wake?.();
      unsubscribe().catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'leaving a chat stream channel failed'),
      );
    });

    let row = await repo.findMessage(messageId);
    if (!row) {
      sink.error({ status: 'error', error: storedError(message('chat.messageNotFound')) });
      sink.end();
      return;
    }
    // Clients are only ever shown stored text: one ahead of the database holds another answer
    // (regenerated meanwhile) and starts over.
    let have = offset <= row.content.length ? offset : 0;
    const sendFrom = (current: MessageRow) => {
      if (have < current.content.length) {
        sink.delta({ seq: current.seq, offset: have, text: current.content.slice(have) });
        have = current.content.length;
      }
    };
    const finishFrom = (current: MessageRow) => {
      sendFrom(current);
      sendEnd(sink, { ...current, usage: usageOf(current) });
      sink.end();
    };

    sendFrom(row);
    // The seq of the text the client holds: an end at or below it needs nothing more read.
    let seen = row.seq;
    if (row.status !== 'streaming') return finishFrom(row);
    if (!(await generations.isWritten(row))) {
      await generations.endAbandoned(row.id, row.writerInstance);
      row = (await repo.findMessage(messageId)) ?? row;
      return finishFrom(row);
    }

    const pushEnd = (current: MessageState) => {
      if (current.status === 'streaming') return;
      queue.push({
        t: 'end',
        seq: current.seq,
        status: current.status,
        error: current.error,
        usage: usageOf(current),
      });
      wake?.();
    };
    let reading = false;
    timers.fallback = setInterval(() => {
      const pubsub = bus.pubsub();
      if (reading || (pubsub.live && pubsub.outages === outagesSeen)) return;
      reading = true;
      void (async () => {
        const current = await repo.findMessage(messageId);
        // Back and resubscribed before this read: whatever the read lacks arrives live.
        if (pubsub.live) outagesSeen = pubsub.outages;
        if (!current || closed) return;
        sendFrom(current);
        pushEnd(current);
      })()
        .catch((error: unknown) =>
          this.deps.log.debug({ err: error, messageId }, 'reading a followed chat answer failed'),
        )
        .finally(() => {
          reading = false;
        });
    }, this.options.fallbackPollMs);

    timers.heartbeat = setInterval(() => {
      sink.ping();
      void (async () => {
        const current = await repo.findState(messageId);
        if (!current) return;
        if (current.status !== 'streaming') {
          // Its end never arrived on the bus: finish from the row, as the end event would.
          pushEnd(current);
        } else if (!(await generations.isWritten(current))) {
          await generations.endAbandoned(current.id, current.writerInstance);
        }
      })().catch((error: unknown) =>
        this.deps.log.warn({ err: error, messageId }, 'checking a followed chat answer failed'),
      );
    }, this.options.heartbeatMs);

    while (!closed) {
      const event = queue.shift();
      if (!event) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      if (event.t === 'end') {
        // A thousand answers end within a second: their followers read no row when they hold
        // the whole text already (the last words come as a delta before the end).
        if (event.seq <= seen) {
          sendEnd(sink, event);
          sink.end();
          return;
        }
        const final = await repo.findMessage(messageId);
        if (final) finishFrom(final);
        else sink.end();
        return;
      }
      if (event.offset > have) {
        // The database is behind this delta: wait for the next flush, then fill in from it.
        const filled = await this.waitForContent(messageId, event.offset, () => closed);
        if (!filled) {
          sink.error({ status: 'error', error: storedError(message('chat.streamLost')) });
          sink.end();
          return;
        }
        // A finished answer in the database is complete: nothing live can add to it.
        if (filled.status !== 'streaming') return finishFrom(filled);
        sendFrom({ ...filled, content: filled.content.slice(0, event.offset) });
      }
      const end = event.offset + event.text.length;
      if (end > have) {
        sink.delta({ seq: event.seq, offset: have, text: event.text.slice(have - event.offset) });
        have = end;
      }
      seen = Math.max(seen, event.seq);
    }
  }

  private async waitForContent(
    messageId: number,
    length: number,
    cancelled: () => boolean,
  ): Promise<MessageRow | undefined> {
    const deadline = Date.now() + this.options.gapTimeoutMs;
    while (!cancelled()) {
      const row = await this.deps.repo.findMessage(messageId);
      if (!row) return undefined;
      if (row.content.length >= length || row.status !== 'streaming') return row;
      if (Date.now() > deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, this.options.gapPollMs));
    }
    return undefined;
  }
}
