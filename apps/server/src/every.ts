/**
 * Runs `task` every `intervalMs`, one run at a time (a run still going when the next is due is
 * not overlapped), handing a failure to `onError`; the timer never keeps the process alive.
 * Returns the function that stops it.
 */
export function every(
  intervalMs: number,
  task: () => Promise<unknown>,
  onError: (error: unknown) => void,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    task()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
