/**
 * Pauses of this process itself (a long GC, a starved CPU, a stopped VM), seen by a timer that
 * should turn every `intervalMs` and turned late. An instance that judges another dead by the age
 * of its heartbeat must not count the time it slept through itself: a pause that stopped this
 * process often stopped the other too (two instances on one machine, or in one test process), and
 * when they wake the other's heartbeat looks as old as the pause, a beat before it is written
 * again. `Instances.aliveSince` grants others the longest recent pause.
 *
 * Read on a monotonic clock of its own, never the instance's wall clock: a clock set forward is
 * not a pause (and the tests move the wall clock to make heartbeats old).
 */
export class LoopPauses {
  private lastTurn: number | undefined;
  private recent: { endedAt: number; ms: number }[] = [];

  constructor(
    private readonly intervalMs: number,
    /** How long a pause is still counted after it ended: until the others have beaten again. */
    private readonly keepMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Called by the timer every `intervalMs`; `start` by its first call. */
  turn(): void {
    const at = this.clock();
    const late = this.lateness(at);
    this.lastTurn = at;
    this.recent = this.recent.filter((pause) => at - pause.endedAt < this.keepMs);
    if (late > 0) this.recent.push({ endedAt: at, ms: late });
  }

  /** The timer stopped: nothing more is measured, and no pause is counted. */
  stop(): void {
    this.lastTurn = undefined;
    this.recent = [];
  }

  /**
   * The longest pause of the last `keepMs`, or the one under way (the timer is overdue: whoever
   * asks runs first after the pause), in ms; 0 when the timer turned on time.
   */
  recentMs(): number {
    const at = this.clock();
    let ms = this.lateness(at);
    for (const pause of this.recent)
      if (at - pause.endedAt < this.keepMs) ms = Math.max(ms, pause.ms);
    return ms;
  }

  /**
   * How much later than its time the turn at `at` is, counted only past a whole missed interval:
   * a timer a few ms late is ordinary, and a judge granting those would blur every time limit.
   */
  private lateness(at: number): number {
    if (this.lastTurn === undefined) return 0;
    const late = at - this.lastTurn - this.intervalMs;
    return late > this.intervalMs ? late : 0;
  }
}
