import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../../bus/index';
import type { Instances } from '../../../instances/instances';
import type { ChatBudgets } from '../budgets/index';
import type { MessageRow } from '../chat.tables';
import { AnswerRepository } from './answers.repository';
import { channelOf, EndMessages, type JobEvent } from './job';
import { estimateTokens } from './tokens';
import type { WriterPresence, WriterState } from './writers';

export interface AbandonedDeps {
  repo: AnswerRepository;
  budgets: ChatBudgets;
  bus: Bus;
  log: FastifyBaseLogger;
  now: () => number;
  instances: Instances;
  presence: WriterPresence;
  /** Whether this instance is writing the answer (it is then alive, whatever its heartbeat). */
  writesHere: (messageId: number) => boolean;
  /** An answer was ended here: its parts and its place in the search index's queue are due. */
  ended?: () => void;
}

/** Why an answer was ended by someone other than its writer, as far as they can tell. */
const takenOverReason = (state: WriterState) =>
  state === 'lost' ? EndMessages.lostTouch : EndMessages.interrupted;

/**
 * Answers nobody writes any more (DESIGN 2, issue 26): an answer lives as long as its writer's
 * heartbeat, or while its writer is still running but out of touch with the database for less
 * than the grace (`WriterPresence`). Every instance sweeps once a heartbeat and ends the others
 * as interrupted, from what was stored, which is all any client was shown.
 */
export class AbandonedAnswers {
  private sweeping: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: AbandonedDeps) {}

  /** Sweeps now, then once a heartbeat: an answer ends within a beat of its writer's death. */
  async start(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.deps.instances.timing.heartbeatMs);
    this.timer.unref();
  }

  /** Stops sweeping; resolves once a sweep under way has finished. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /**
   * Whether a live instance is writing this streaming answer: its writer's heartbeat is fresh, or
   * it is running but out of touch with the database for less than the grace.
   */
  async isWritten(row: Pick<MessageRow, 'id' | 'writerInstance'>): Promise<boolean> {
    if (this.deps.writesHere(row.id)) return true;
    const state = await this.deps.presence.stateOf(row.writerInstance);
    return state === 'alive' || state === 'stalled';
  }

  /**
   * Ends an answer nobody is writing any more (its writer died): it keeps what was stored, which
   * is all any client was shown, is marked interrupted, and listeners everywhere hear the end.
   * Does nothing when the answer has ended or another writer has taken it since. Without an
   * `error`, the reason says whether its writer was gone or out of touch with the database.
   */
  async end(
    messageId: number,
    writer: string | null,
    status: 'interrupted' | 'stopped' = 'interrupted',
    reason?: string,
  ): Promise<void> {
    const { repo, budgets, bus, presence } = this.deps;
    const error = reason ?? takenOverReason(await presence.stateOf(writer));
    // A look without the text first: most calls find the answer ended or taken already.
    const before = await repo.findState(messageId);
    if (before?.status !== 'streaming' || before.writerInstance !== writer) return;
    const row = await repo.db.transaction().execute(async (trx) => {
      const answers = new AnswerRepository(trx);
      // Its whole stored text: the row's and its parts' (read after PostgreSQL's row lock, so a
      // write of the writer's that was under way is in it, and none comes after it).
      const current = await answers.findMessage(messageId, { lock: true });
      if (current?.status !== 'streaming' || current.writerInstance !== writer) return undefined;
      const completionTokens = estimateTokens(current.content);
      const done = await answers.finishMessage(messageId, writer, {
        content: current.content,
        seq: current.seq,
        status,
        error,
        completionTokens,
        tokensEstimated: 1,
        updatedAt: this.deps.now(),
      });
      if (!done) return undefined;
      // Its parts go with this instance's sweep of parts (the `ended` hook): no read takes them.
      await budgets.settle(
        trx,
        messageId,
        current.promptTokens || undefined,
        completionTokens,
        true,
      );
      return { ...current, completionTokens };
    });
    if (!row) return;
    this.deps.ended?.();
    const event: JobEvent = {
      t: 'end',
      seq: row.seq,
      status,
      error,
      usage: {
        promptTokens: row.promptTokens,
        completionTokens: row.completionTokens,
        estimated: true,
      },
    };
    await bus.publish(channelOf(messageId), JSON.stringify(event));
  }

  /**
   * Ends the answers of dead writers, and of writers out of touch with the database for longer
   * than the grace: one indexed query when there are none.
   */
  sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      try {
        const abandoned = await this.deps.repo.abandoned(this.deps.instances.aliveSince());
        const states = new Map<string | null, WriterState>();
        for (const { id, writerInstance } of abandoned) {
          // Our own heartbeat is late (the database was slow): nothing here is dead.
          if (this.deps.writesHere(id)) continue;
          let state = states.get(writerInstance);
          if (state === undefined) {
            state = await this.deps.presence.stateOf(writerInstance);
            states.set(writerInstance, state);
          }
          if (state === 'alive' || state === 'stalled') continue;
          await this.end(id, writerInstance, 'interrupted', takenOverReason(state));
        }
      } catch (error) {
        this.deps.log.warn({ err: error }, 'ending abandoned chat answers failed');
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }
}
