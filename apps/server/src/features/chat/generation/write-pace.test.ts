import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WritePace } from './write-pace';

const TICK_MS = 1_000;

/** Whether `promise` has settled once the clock has moved `ms` on (and every callback ran). */
async function settledAfter(promise: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

/**
 * The group commit's pace (write-pace.ts), on a clock of the test's own: when the next write may
 * go, and how the loop's rest ends.
 */
describe('WritePace', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets a write go a tick after the last one, and an answer's first text at once, only once per answer", () => {
    const pace = new WritePace(TICK_MS);
    const answer = {};
    pace.wrote();
    vi.advanceTimersByTime(300);
    expect(pace.wait()).toBe(700);

    pace.came(answer, true, false);
    expect(pace.wait()).toBe(0);
    pace.wrote();
    // Its next text, even one that says it is first again (nothing of it written yet), waits.
    pace.came(answer, true, false);
    expect(pace.wait()).toBe(TICK_MS);
    pace.came({}, false, false);
    expect(pace.wait()).toBe(TICK_MS);
  });

  it('rests a whole tick between idle steps, ended by the first text that comes', async () => {
    const pace = new WritePace(TICK_MS);
    let waiting = false;
    pace.wrote();
    // The last write was long ago: only idle steps since.
    vi.advanceTimersByTime(5 * TICK_MS);
    const idle = pace.rest(() => waiting);
    expect(await settledAfter(idle, 100)).toBe(false);
    // Text comes, none other waiting: the rest ends, and the write goes (its tick is long over).
    waiting = true;
    pace.came({}, false, true);
    expect(await settledAfter(idle, 0)).toBe(true);

    waiting = false;
    const untouched = pace.rest(() => waiting);
    expect(await settledAfter(untouched, TICK_MS - 1)).toBe(false);
    expect(await settledAfter(untouched, 1)).toBe(true);
  });

  it("holds text for its tick, but not an answer's first; text ending an idle rest still waits for the tick", async () => {
    const pace = new WritePace(TICK_MS);
    pace.wrote();
    const rest = pace.rest(() => true);
    // More text while other text waits: the tick holds.
    pace.came({}, false, false);
    expect(await settledAfter(rest, 500)).toBe(false);
    // An answer's first text: the rest ends, and the write goes without waiting.
    pace.came({}, true, false);
    expect(await settledAfter(rest, 0)).toBe(true);
    expect(pace.wait()).toBe(0);

    pace.wrote();
    await vi.advanceTimersByTimeAsync(400);
    let waiting = false;
    const idle = pace.rest(() => waiting);
    // Text 400 ms after the last write: the rest wakes, and the write waits the tick's last 600.
    waiting = true;
    pace.came({}, false, true);
    expect(await settledAfter(idle, 599)).toBe(false);
    expect(await settledAfter(idle, 1)).toBe(true);
  });
});
