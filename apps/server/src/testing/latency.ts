import type { TestApp } from './test-app';

export interface Sampled {
  /** Milliseconds each plain call took, in the order they were made. */
  latencies: number[];
  p99: number;
  max: number;
  /** The process's largest resident memory seen while sampling, bytes. */
  rssPeak: number;
}

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
};

/**
 * Makes a plain call (`GET /robots.txt`, through the app's own event loop) every `everyMs` while
 * `work` runs, and answers how long the calls took: whatever blocks the event loop shows here as
 * it would to another member.
 */
export async function sampleWhile<T>(
  t: TestApp,
  work: () => Promise<T>,
  everyMs = 20,
): Promise<{ result: T; sampled: Sampled }> {
  const latencies: number[] = [];
  let rssPeak = process.memoryUsage.rss();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
      latencies.push(performance.now() - started);
      if (res.statusCode >= 500) throw new Error(`robots.txt answered ${res.statusCode}`);
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    const result = await work();
    return {
      result,
      sampled: {
        latencies,
        p99: quantile(latencies, 0.99),
        max: Math.max(0, ...latencies),
        rssPeak,
      },
    };
  } finally {
    sampling = false;
    await sampler;
  }
}

/**
 * What a test holds sampled calls to: none waits a whole second. That is a bound of liveness
 * ("the server answers meanwhile"), not a performance goal: a blocked event loop held calls for
 * seconds (one large import: 25.8 s), while a busy 2-core machine delays them by tens of
 * milliseconds whatever the server does. How close the p99 stays to a quiet run's is measured by
 * `npm run bench` (bench/chat-archive.bench.mjs), as a ratio in one run.
 */
export const answeredWithinMs = 1_000;
