import { randomUUID } from 'node:crypto';
import type { Db } from '../db/index';
import { LoopPauses } from './loop-pauses';

export interface InstanceTiming {
  /** How often a running instance writes its heartbeat. */
  heartbeatMs: number;
  /** An instance whose last heartbeat is older than this is dead: others take over what it held. */
  deadAfterMs: number;
}

/**
 * A beat a second, dead after three missed: what a killed instance held is taken over within
 * about 3–4 s (DESIGN 2: "a few seconds"), and a busy event loop that delays one beat by a
 * second or two is not mistaken for a dead one.
 */
export const defaultInstanceTiming: InstanceTiming = { heartbeatMs: 1_000, deadAfterMs: 3_000 };

/** Rows of instances gone this long are deleted, so the table holds only recent ones. */
const forgetAfterMs = 24 * 60 * 60_000;

/**
 * This process among the instances sharing the database. Whatever it holds elsewhere (a claim
 * row, a lease) names `id`; another instance treats it as held only while this instance's
 * heartbeat is fresh (`aliveSince`). A new process has a new id, so a restart never has to
 * guess which claims were its own: the old process's claims die with its heartbeat.
 *
 * The heartbeat is the instance's own clock, as every other time rule is: instances must keep
 * their clocks in step (NTP), as they must for sessions and rate limits.
 */
export class Instances {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private lastBeat = 0;
  private stopped = false;
  private readonly pauses: LoopPauses;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    readonly timing: InstanceTiming = defaultInstanceTiming,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** The monotonic clock this process's own pauses are timed on (`LoopPauses`). */
    monotonic?: () => number,
  ) {
    this.pauses = new LoopPauses(timing.heartbeatMs, timing.deadAfterMs, monotonic);
  }

  /** Registers this instance and starts beating. */
  async start(): Promise<void> {
    const now = this.now();
    await this.db
      .insertInto('instances')
      .values({ id: this.id, startedAt: now, heartbeatAt: now })
      .execute();
    this.lastBeat = now;
    this.pauses.turn();
    this.timer = setInterval(() => {
      this.pauses.turn();
      void this.beat();
    }, this.timing.heartbeatMs);
    this.timer.unref();
  }

  /** Writes a heartbeat now (the timer calls this; tests may too). */
  async beat(): Promise<void> {
    if (this.stopped) return;
    const now = this.now();
    try {
      await this.db
        .updateTable('instances')
        .set({ heartbeatAt: now })
        .where('id', '=', this.id)
        .execute();
      this.lastBeat = now;
    } catch (error) {
      this.onError(error);
    }
  }

  /** When the database last took this instance's heartbeat (its own clock; 0 before start). */
  get lastBeatAt(): number {
    return this.lastBeat;
  }

  /**
   * Whether this instance's last heartbeat is still fresh to the others: when it is not (the
   * database was out of reach), others may already have taken over what it held, so it must not
   * finish work it can't confirm it still holds.
   */
  holdsOn(): boolean {
    return !this.stopped && this.now() - this.lastBeat < this.timing.deadAfterMs;
  }

  /**
   * Heartbeats at or after this time are alive (for queries that join claims to instances). A
   * pause of this process's own lately (`LoopPauses`) is granted on top: the others' heartbeats
   * did not age while it slept, as far as it can know.
   */
  aliveSince(): number {
    return this.now() - this.timing.deadAfterMs - this.pauses.recentMs();
  }

  /** How long this process was paused lately, in ms (0 when its timers ran on time). */
  recentPauseMs(): number {
    return this.pauses.recentMs();
  }

  async isAlive(id: string): Promise<boolean> {
    if (id === this.id) return this.holdsOn();
    const row = await this.db
      .selectFrom('instances')
      .select('heartbeatAt')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined && row.heartbeatAt >= this.aliveSince();
  }

  /** Ids of the instances alive now, this one included. */
  async alive(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('instances')
      .select('id')
      .where('heartbeatAt', '>=', this.aliveSince())
      .execute();
    return rows.map((r) => r.id);
  }

  /** Deletes the rows of instances dead for a day (called by a sweeper). */
  async forgetDead(): Promise<number> {
    const result = await this.db
      .deleteFrom('instances')
      .where('heartbeatAt', '<', this.now() - forgetAfterMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Stops beating and deletes this instance's row: what it held is free at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.pauses.stop();
    await this.db.deleteFrom('instances').where('id', '=', this.id).execute().catch(this.onError);
  }
}
