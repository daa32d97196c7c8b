/**
 * When the group commit's next write goes (AnswerFlusher): at most one write per `tickMs`, but
 * an answer's first text is written as soon as the write under way is done, so that the first
 * token of an answer is not held back by the others' tick (DESIGN 10: streaming adds at most
 * 10 ms to the first token). Between two idle steps (nothing to write) the loop rests a tick,
 * ended early by any text.
 */
export class WritePace {
  /** When the last write began. */
  private last = -Infinity;
  /** An answer's first text is waiting: the next write need not wait for the tick. */
  private fresh = false;
  /** Answers whose first text has been sped so: their later text waits for the tick. */
  private readonly begun = new WeakSet<object>();
  /** Ends the loop's rest (`rest`) early: text it waits for came. */
  private wake: (() => void) | undefined;

  constructor(private readonly tickMs: number) {}

  /** A write begins now, with all the text waiting. */
  wrote(): void {
    this.last = performance.now();
    this.fresh = false;
  }

  /**
   * Text came for `answer`: `first` if it has none written yet, `idle` if no other text was
   * waiting. Ends a rest that this text shortens.
   */
  came(answer: object, first: boolean, idle: boolean): void {
    const sped = first && !this.begun.has(answer);
    if (sped) {
      this.begun.add(answer);
      this.fresh = true;
    }
    if (idle || sped) this.wake?.();
  }

  /** How long the next write waits: the rest of the last write's tick, none for a first text. */
  wait(): number {
    return this.fresh ? 0 : this.last + this.tickMs - performance.now();
  }

  /**
   * Waits for the next write (`wait`), or, with nothing to write (`waiting()` false: between two
   * idle steps), a tick, ended early by any text.
   */
  async rest(waiting: () => boolean): Promise<void> {
    for (;;) {
      const wait = waiting() ? this.wait() : this.tickMs;
      if (wait <= 0) return;
      const woken = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          this.wake = undefined;
          resolve(false);
        }, wait);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve(true);
        };
      });
      if (!woken) return;
    }
  }
}
