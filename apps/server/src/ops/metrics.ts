import { outages, type Outage } from '@atrium/shared';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { PoolStats } from '../db/pool-stats';
import { outageListeners } from '../http/unavailable';
import { RequestTimings } from './request-timings';
import { answerTokenListeners, uploadChunkListeners } from './taps';

/** What the gauges read at scrape time: state the features keep anyway, never copied per event. */
export interface MetricsSources {
  /** Answers this instance is writing now. */
  liveAnswers(): number;
  /** Clients following an answer over an event stream on this instance, when known. */
  streamWatchers?: () => number;
  /** The PostgreSQL pool; undefined on SQLite. */
  pool(): PoolStats | undefined;
  /** This process's Redis connections and their ioredis status ('ready' when usable). */
  redisConnections(): { role: string; status: string }[];
  /** Whether each outside service answers now (a bounded probe), by name. */
  dependencies(): Promise<Record<string, boolean>>;
}

/**
 * The operators' Prometheus metrics (issue 26), in a registry of this app's own (tests build many
 * apps in one process). Built only when ATRIUM_METRICS_TOKEN is set: without it nothing is kept.
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly timings = new RequestTimings();
  private readonly detach: (() => void)[] = [];

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });

    const chunks = new Counter({
      name: 'atrium_upload_chunks_total',
      help: 'Upload chunks stored and recorded as held on this instance',
      registers,
    });
    const bytes = new Counter({
      name: 'atrium_upload_bytes_total',
      help: 'Bytes of the upload chunks stored and recorded as held on this instance',
      registers,
    });
    this.listen(uploadChunkListeners, (size: number) => {
      chunks.inc();
      bytes.inc(size);
    });

    const tokens = new Counter({
      name: 'atrium_answer_tokens_total',
      help: 'Tokens of the chat answers this instance finished, prompt and completion',
      labelNames: ['kind'],
      registers,
    });
    const prompt = tokens.labels('prompt');
    const completion = tokens.labels('completion');
    this.listen(answerTokenListeners, (promptTokens: number, completionTokens: number) => {
      prompt.inc(promptTokens);
      completion.inc(completionTokens);
    });

    const refusals = new Counter({
      name: 'atrium_outage_refusals_total',
      help: 'Calls refused because the database, Redis or storage was unavailable or the disk full',
      labelNames: ['outage'],
      registers,
    });
    // Every kind shows from the start, so a rate() sees its first refusal.
    const byOutage = new Map(outages.map((outage) => [outage, refusals.labels(outage)]));
    for (const counter of byOutage.values()) counter.inc(0);
    this.listen(outageListeners, (outage: Outage) => byOutage.get(outage)?.inc());

    new Gauge({
      name: 'atrium_chat_answers_active',
      help: 'Chat answers this instance is writing now',
      registers,
      collect() {
        this.set(sources.liveAnswers());
      },
    });
    const { streamWatchers } = sources;
    if (streamWatchers) {
      new Gauge({
        name: 'atrium_chat_stream_watchers',
        help: 'Clients following a chat answer over an event stream on this instance',
        registers,
        collect() {
          this.set(streamWatchers());
        },
      });
    }

    // SQLite has no pool: the pool's gauges are left out rather than shown as zeros.
    const { pool } = sources;
    if (pool() !== undefined) {
      new Gauge({
        name: 'atrium_db_pool_connections',
        help: 'PostgreSQL pool connections: total open and idle',
        labelNames: ['state'],
        registers,
        collect() {
          const stats = pool();
          this.labels('total').set(stats?.total ?? 0);
          this.labels('idle').set(stats?.idle ?? 0);
        },
      });
      new Gauge({
        name: 'atrium_db_pool_waiting',
        help: 'Queries waiting for a PostgreSQL pool connection',
        registers,
        collect() {
          this.set(pool()?.waiting ?? 0);
        },
      });
    }

    new Gauge({
      name: 'atrium_redis_connection_up',
      help: "This instance's Redis connections by role: 1 when ready for commands, 0 otherwise",
      labelNames: ['role'],
      registers,
      collect() {
        this.reset();
        // Down when any connection of the role is: one broken connection fails its share of calls.
        const up = new Map<string, boolean>();
        for (const { role, status } of sources.redisConnections()) {
          up.set(role, (up.get(role) ?? true) && status === 'ready');
        }
        for (const [role, ready] of up) this.labels(role).set(ready ? 1 : 0);
      },
    });

    new Gauge({
      name: 'atrium_dependency_up',
      help: 'Whether the database, Redis (when configured) and storage answer a probe now (1) or not (0)',
      labelNames: ['dependency'],
      registers,
      async collect() {
        for (const [name, up] of Object.entries(await sources.dependencies())) {
          this.labels(name).set(up ? 1 : 0);
        }
      },
    });
  }

  /** Called once per answered request: see `RequestTimings` for why it is not prom-client's. */
  observe(route: string | undefined, method: string, status: number, ms: number): void {
    this.timings.observe(route, method, status, ms);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in Prometheus' text format. */
  async text(): Promise<string> {
    return (await this.registry.metrics()) + this.timings.exposition();
  }

  /** Stops listening to the taps (the app closed); the registry goes with the app. */
  close(): void {
    for (const stop of this.detach.splice(0)) stop();
  }

  private listen<L>(listeners: Set<L>, listener: L): void {
    listeners.add(listener);
    this.detach.push(() => listeners.delete(listener));
  }
}
