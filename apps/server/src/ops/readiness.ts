import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Bus } from '../bus/types';
import type { Config } from '../config';
import type { Db } from '../db/index';
import type { Storage } from '../storage/index';

/** One thing this instance needs to serve: asked for a cheap answer. */
export interface ReadinessCheck {
  name: 'database' | 'redis' | 'storage';
  probe(): Promise<unknown>;
}

/**
 * How a check went. `error` says only whether it failed or said nothing in time: the endpoint is
 * public, and a driver's message may name internal hosts (the log has it).
 */
export interface CheckOutcome {
  ok: boolean;
  /** Milliseconds the probe took, or waited before it was given up on. */
  ms: number;
  error?: 'failed' | 'timeout';
}

export interface ReadinessReport {
  status: 'ready' | 'unready';
  /** The checks that did not pass, so a log line or an alert can name them. */
  failing: string[];
  checks: Record<string, CheckOutcome>;
}

/** A key nothing writes: a HEAD of it is a round trip to the store and nothing more. */
const probeKey = 'ops/readyz-probe';

/**
 * Local storage answers when its folder is a folder this process may read and write (the first
 * upload would create it, so a fresh install's missing folder is made, not failed). S3 answers
 * a HEAD of a key that does not exist: a 404 is an answer, a network or credential error is not.
 */
function storageProbe(config: Config, storage: Storage): () => Promise<unknown> {
  const settings = config.storage;
  if (settings.driver === 'local') {
    return async () => {
      await mkdir(settings.dir, { recursive: true });
      await access(settings.dir, constants.R_OK | constants.W_OK | constants.X_OK);
    };
  }
  return () => storage.stat(probeKey);
}

/** The checks of `GET /readyz`: the database, Redis when configured, and storage. */
export function readinessChecks(deps: {
  config: Config;
  db: Db;
  bus: Bus;
  storage: Storage;
}): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [
    { name: 'database', probe: () => sql`select 1`.execute(deps.db) },
    { name: 'storage', probe: storageProbe(deps.config, deps.storage) },
  ];
  if (deps.config.redisUrl) checks.push({ name: 'redis', probe: () => deps.bus.ping() });
  return checks;
}

const timedOut = Symbol('timed out');

/**
 * Runs the checks in parallel, each bounded by `timeoutMs` however its driver behaves, so a probe
 * never hangs. A probe still running from an earlier request is waited on rather than started
 * again: a load balancer probing a stalled database every second must not pile up connections.
 */
export class Readiness {
  private readonly running = new Map<string, Promise<number>>();
  private readonly lastOk = new Map<string, boolean>();

  constructor(
    private readonly checks: readonly ReadinessCheck[],
    private readonly timeoutMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async report(): Promise<ReadinessReport> {
    const outcomes = await Promise.all(this.checks.map((check) => this.run(check)));
    const checks: Record<string, CheckOutcome> = {};
    const failing: string[] = [];
    this.checks.forEach((check, i) => {
      const outcome = outcomes[i] ?? { ok: false, ms: 0, error: 'failed' };
      checks[check.name] = outcome;
      if (!outcome.ok) failing.push(check.name);
    });
    return { status: failing.length === 0 ? 'ready' : 'unready', failing, checks };
  }

  private started(check: ReadinessCheck): Promise<number> {
    const existing = this.running.get(check.name);
    if (existing) return existing;
    const begun = performance.now();
    const run = Promise.resolve()
      .then(() => check.probe())
      .then(() => performance.now() - begun)
      .finally(() => this.running.delete(check.name));
    this.running.set(check.name, run);
    return run;
  }

  private async run(check: ReadinessCheck): Promise<CheckOutcome> {
    const begun = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof timedOut>((resolve) => {
      timer = setTimeout(resolve, this.timeoutMs, timedOut);
    });
    let outcome: CheckOutcome;
    let failure: unknown;
    try {
      const answer = await Promise.race([this.started(check), deadline]);
      outcome =
        answer === timedOut
          ? { ok: false, ms: round(performance.now() - begun), error: 'timeout' }
          : { ok: true, ms: round(answer) };
    } catch (error) {
      failure = error;
      outcome = { ok: false, ms: round(performance.now() - begun), error: 'failed' };
    } finally {
      clearTimeout(timer);
    }
    this.noteChange(check.name, outcome, failure);
    return outcome;
  }

  /** One log line when a check starts failing and one when it passes again, not one per probe. */
  private noteChange(name: string, outcome: CheckOutcome, failure: unknown): void {
    const before = this.lastOk.get(name);
    this.lastOk.set(name, outcome.ok);
    if (before === outcome.ok) return;
    if (!outcome.ok) {
      this.log.warn(
        { check: name, err: failure, timeoutMs: this.timeoutMs, error: outcome.error },
        `readiness: ${name} is not answering`,
      );
    } else if (before === false) {
      this.log.info({ check: name, ms: outcome.ms }, `readiness: ${name} answers again`);
    }
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
