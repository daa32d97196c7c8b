/** Upper bounds of the latency buckets, in seconds (Prometheus' `le`). */
const bucketSeconds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const bucketMs = bucketSeconds.map((seconds) => seconds * 1000);
const statusClasses = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** The label of requests no route matched: one series, whatever addresses are tried. */
export const unmatchedRoute = '<unmatched>';

interface Series {
  /** Observations per bucket, not cumulative; the last slot is above the largest bound. */
  counts: Float64Array;
  sumMs: number;
  count: number;
}

const newSeries = (): Series => ({
  counts: new Float64Array(bucketMs.length + 1),
  sumMs: 0,
  count: 0,
});

/** A label value as the text format wants it quoted. */
const quoted = (value: string) =>
  `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/**
 * `http_request_duration_seconds` by route pattern, method and status class, kept in plain
 * arrays and written out in Prometheus' text format at scrape time. prom-client's histogram
 * hashes its labels and stringifies a bucket key on every observation (microseconds on this
 * path); here an answer costs two map lookups, a scan of 14 numbers and three additions.
 */
export class RequestTimings {
  /** route → method → series per status class. */
  private readonly routes = new Map<string, Map<string, (Series | undefined)[]>>();

  observe(route: string | undefined, method: string, status: number, ms: number): void {
    const name = route ?? unmatchedRoute;
    let methods = this.routes.get(name);
    if (!methods) {
      methods = new Map();
      this.routes.set(name, methods);
    }
    let classes = methods.get(method);
    if (!classes) {
      classes = [];
      methods.set(method, classes);
    }
    // Statuses outside 100–599 do not occur in HTTP/1.1; they would count as 5xx.
    const index = Math.min(4, Math.max(0, Math.floor(status / 100) - 1));
    let series = classes[index];
    if (!series) {
      series = newSeries();
      classes[index] = series;
    }
    let bucket = 0;
    while (bucket < bucketMs.length && ms > (bucketMs[bucket] ?? Infinity)) bucket += 1;
    series.counts[bucket] = (series.counts[bucket] ?? 0) + 1;
    series.sumMs += ms;
    series.count += 1;
  }

  /** The histogram in the text exposition format (version 0.0.4). */
  exposition(): string {
    const name = 'http_request_duration_seconds';
    const lines = [
      `# HELP ${name} Time from the request to the end of its answer, by route pattern, method and status class`,
      `# TYPE ${name} histogram`,
    ];
    for (const [route, methods] of this.routes) {
      for (const [method, classes] of methods) {
        classes.forEach((series, index) => {
          if (!series) return;
          const labels = `route=${quoted(route)},method=${quoted(method)},status_class="${statusClasses[index] ?? '5xx'}"`;
          let cumulative = 0;
          bucketSeconds.forEach((le, bucket) => {
            cumulative += series.counts[bucket] ?? 0;
            lines.push(`${name}_bucket{${labels},le="${le}"} ${cumulative}`);
          });
          lines.push(`${name}_bucket{${labels},le="+Inf"} ${series.count}`);
          lines.push(`${name}_sum{${labels}} ${series.sumMs / 1000}`);
          lines.push(`${name}_count{${labels}} ${series.count}`);
        });
      }
    }
    return `${lines.join('\n')}\n`;
  }
}
