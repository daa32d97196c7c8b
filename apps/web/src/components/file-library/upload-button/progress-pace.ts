/**
 * How often the queue redraws a file's progress at most. Hashing moves a percent every few
 * milliseconds on a fast disk, and each redraw is a React render of the queue: measured in
 * Chromium on a 256 MiB upload (bench/upload-browser.bench.mjs), drawing every percent kept the
 * page's main thread busy for a third of the hashing, beside the hashing worker.
 */
export const progressRedrawMs = 100;

export interface ProgressPace<T> {
  /**
   * Draws `value` now when the last draw is at least the interval old (or `urgent`, e.g. a new
   * phase); otherwise keeps it and draws the latest kept value once the interval has passed.
   */
  push(value: T, urgent?: boolean): void;
  /** Forgets a kept value (the upload ended: its own state is drawn instead). */
  cancel(): void;
}

export function progressPace<T>(
  intervalMs: number,
  draw: (value: T) => void,
  now: () => number = () => performance.now(),
): ProgressPace<T> {
  let last = -Infinity;
  let kept: { value: T } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (!kept) return;
    const { value } = kept;
    kept = undefined;
    last = now();
    draw(value);
  };
  return {
    push(value, urgent = false) {
      kept = { value };
      const waited = now() - last;
      if (urgent || waited >= intervalMs) {
        clearTimeout(timer);
        flush();
      } else {
        timer ??= setTimeout(flush, intervalMs - waited);
      }
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      kept = undefined;
    },
  };
}
