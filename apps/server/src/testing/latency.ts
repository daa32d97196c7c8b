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
 * The bound a sampled p99 is held to: 100 ms (issue 26) beyond what the same calls take on this
 * machine just before. A shared 2-core machine under load delays every call by tens of
 * milliseconds whatever the server does; a blocked event loop delays them by seconds.
 */
export async function latencyBound(
  t: TestApp,
  ms = 1_000,
): Promise<{ bound: number; p99: number }> {
  const { sampled } = await sampleWhile(t, () => new Promise((resolve) => setTimeout(resolve, ms)));
  return { bound: 100 + sampled.p99, p99: sampled.p99 };
}
