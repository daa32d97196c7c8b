import { describe, expect, it } from 'vitest';
import { RequestTimings } from './request-timings';

const labels = 'route="/api/x",method="POST",status_class="2xx"';

describe('RequestTimings', () => {
  it('writes cumulative buckets, +Inf, sum and count per route, method and status class', () => {
    const timings = new RequestTimings();
    timings.observe('/api/x', 'POST', 200, 1); // exactly on the 1 ms bound: counted in it
    timings.observe('/api/x', 'POST', 204, 7);
    timings.observe('/api/x', 'POST', 200, 60_000); // above every bound: only in +Inf
    timings.observe('/api/x', 'POST', 503, 3);
    const text = timings.exposition();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="0.001"} 1\n`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="0.005"} 1\n`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="0.01"} 2\n`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="30"} 2\n`);
    expect(text).toContain(`http_request_duration_seconds_bucket{${labels},le="+Inf"} 3\n`);
    expect(text).toContain(`http_request_duration_seconds_sum{${labels}} 60.008\n`);
    expect(text).toContain(`http_request_duration_seconds_count{${labels}} 3\n`);
    expect(text).toContain(
      'http_request_duration_seconds_count{route="/api/x",method="POST",status_class="5xx"} 1\n',
    );
  });

  it('names unmatched requests once and quotes label values safely', () => {
    const timings = new RequestTimings();
    timings.observe(undefined, 'GET', 404, 1);
    timings.observe(undefined, 'GET', 404, 1);
    timings.observe('/odd/"quoted"\\path', 'GET', 200, 1);
    const text = timings.exposition();
    expect(text).toContain(
      'http_request_duration_seconds_count{route="<unmatched>",method="GET",status_class="4xx"} 2\n',
    );
    expect(text).toContain('route="/odd/\\"quoted\\"\\\\path"');
  });
});
