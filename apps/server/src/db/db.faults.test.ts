import { setTimeout as sleep } from 'node:timers/promises';
import { Code, outageOfEnvelope } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../testing/fault-proxy';
import { startPrivatePostgres, type PrivatePostgres } from '../testing/private-services';
import {
  canRunInstances,
  createDeployment,
  postJson,
  type Deployment,
  type ServerProcess,
} from '../testing/processes';

/**
 * Issue 26, points 1–3 on PostgreSQL: two real instances on a cluster of the test's own behind a
 * fault proxy, with calls in flight on both while the database restarts, loses every connection
 * and vanishes. No process may end, no call may hang or crash, and calls succeed again within 5 s.
 */

interface Outcome {
  server: 'a' | 'b';
  startedAt: number;
  ms: number;
  status: number;
  code: number | 'hung' | 'failed';
  outage?: string | undefined;
}

/** Longer than any bounded answer: a call still open then counts as hung. */
const hangMs = 8000;
const slowest = (outcomes: Outcome[]) => Math.max(...outcomes.map((o) => o.ms));
const boundMs = 5000;

describe.runIf(canRunInstances)('PostgreSQL blinking under two instances', () => {
  let postgres: PrivatePostgres;
  let proxy: FaultProxy;
  let deployment: Deployment;
  const servers: Record<'a' | 'b', { process: ServerProcess; token: string }> = {} as Record<
    'a' | 'b',
    { process: ServerProcess; token: string }
  >;

  const signIn = async (server: ServerProcess) => {
    const login = await postJson<{ token: string }>(server, '/admin/api/auth/login', {
      username: 'admin',
      password: deployment.env.ATRIUM_ADMIN_PASSWORD,
    });
    expect(login.json, login.json.msg).toMatchObject({ code: 0 });
    return login.json.data.token;
  };

  /**
   * A signed-in call that reads the database each time (the roles). Not app/config: the signed-in
   * admin and app/config's parts are kept in memory (issue 32), so it may answer during an outage.
   */
  const call = async (name: 'a' | 'b'): Promise<Outcome> => {
    const { process: server, token } = servers[name];
    const startedAt = Date.now();
    const answer = postJson(
      server,
      '/admin/api/roles/list',
      {},
      { 'admin-api-token': token, cookie: 'XSRF-TOKEN=x', 'x-xsrf-token': 'x' },
    ).then(
      (res) => ({
        status: res.status,
        code: res.json.code,
        outage: outageOfEnvelope(res.json),
      }),
      () => ({ status: 0, code: 'failed' as const, outage: undefined }),
    );
    const hung = sleep(hangMs).then(() => ({
      status: 0,
      code: 'hung' as const,
      outage: undefined,
    }));
    const result = await Promise.race([answer, hung]);
    return { server: name, startedAt, ms: Date.now() - startedAt, ...result };
  };

  /** Two loops of calls on each instance until `stop` is called; every outcome is kept. */
  const inFlight = () => {
    const outcomes: Outcome[] = [];
    let running = true;
    const loops = (['a', 'b', 'a', 'b'] as const).map(async (name) => {
      while (running) {
        outcomes.push(await call(name));
        await sleep(50);
      }
    });
    return {
      outcomes,
      stop: async () => {
        running = false;
        await Promise.all(loops);
        return outcomes;
      },
    };
  };

  /** How long after `since` each instance answers a call with success again. */
  const recovery = async (since: number): Promise<Record<'a' | 'b', number>> => {
    const one = async (name: 'a' | 'b') => {
      for (;;) {
        const outcome = await call(name);
        if (outcome.code === Code.Success) return Date.now() - since;
        if (Date.now() - since > 15_000) return Infinity;
        await sleep(50);
      }
    };
    const [a, b] = await Promise.all([one('a'), one('b')]);
    return { a, b };
  };

  const expectAlive = () => {
    for (const { process: server } of Object.values(servers)) {
      expect(server.child.exitCode, server.output()).toBeNull();
      expect(server.child.signalCode).toBeNull();
      // The pool handled its errors itself: none reached the process's last-resort handlers.
      expect(server.output()).not.toContain('not handled where it happened');
    }
  };

  /** Every answer bounded and either a success or the database refusal, never a crash. */
  const expectClean = (outcomes: Outcome[]) => {
    for (const outcome of outcomes) {
      expect(outcome.ms, JSON.stringify(outcome)).toBeLessThan(boundMs);
      expect(outcome.status, JSON.stringify(outcome)).toBe(200);
      if (outcome.code !== Code.Success)
        expect(outcome, JSON.stringify(outcome)).toMatchObject({
          code: Code.Unavailable,
          outage: 'database',
        });
    }
  };

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    proxy = await startFaultProxy({ host: '127.0.0.1', port: postgres.port });
    deployment = await createDeployment({
      DATABASE_URL: `postgres://postgres@${proxy.address}/postgres`,
    });
    const [a, b] = await Promise.all([deployment.start(), deployment.start()]);
    servers.a = { process: a, token: await signIn(a) };
    servers.b = { process: b, token: await signIn(b) };
  });

  afterAll(async () => {
    await deployment.cleanup();
    await proxy.close();
    await postgres.destroy();
  });

  it('survives `pg_ctl restart -m fast` with calls in flight and recovers within 5 s', async () => {
    const work = inFlight();
    await sleep(300);
    const began = Date.now();
    await postgres.restart();
    const back = Date.now();
    const recovered = await recovery(back);
    const outcomes = await work.stop();
    console.info(
      `[db faults] restart took ${back - began} ms; success again after ${recovered.a} ms (a), ${recovered.b} ms (b); ${outcomes.filter((o) => o.code === Code.Unavailable).length} of ${outcomes.length} calls refused, slowest ${slowest(outcomes)} ms`,
    );
    expectAlive();
    expectClean(outcomes);
    expect(Math.max(recovered.a, recovered.b)).toBeLessThanOrEqual(boundMs);
    expect(servers.a.process.output()).toContain('database connection lost');
    for (const name of ['a', 'b'] as const) await signIn(servers[name].process);
  });

  it('survives every connection being reset and recovers within 5 s', async () => {
    const work = inFlight();
    await sleep(300);
    const reset = Date.now();
    proxy.reset();
    const recovered = await recovery(reset);
    const outcomes = await work.stop();
    console.info(
      `[db faults] reset: success again after ${recovered.a} ms (a), ${recovered.b} ms (b); ${outcomes.filter((o) => o.code === Code.Unavailable).length} of ${outcomes.length} calls refused, slowest ${slowest(outcomes)} ms`,
    );
    expectAlive();
    expectClean(outcomes);
    expect(Math.max(recovered.a, recovered.b)).toBeLessThanOrEqual(boundMs);
  });

  it('answers every call within 5 s while the database is blackholed, and recovers within 5 s of it coming back with the old connections dead', async () => {
    const work = inFlight();
    await sleep(300);
    const cut = Date.now();
    proxy.blackhole();
    await sleep(8000);
    proxy.heal();
    const healed = Date.now();
    const recovered = await recovery(healed);
    const outcomes = await work.stop();
    // Calls that began after the cut showed it (those finished before it may have succeeded).
    const during = outcomes.filter((o) => o.startedAt >= cut + 100 && o.startedAt + o.ms <= healed);
    console.info(
      `[db faults] blackhole 8 s: ${during.length} calls during it, slowest ${Math.max(...during.map((o) => o.ms))} ms; success again after ${recovered.a} ms (a), ${recovered.b} ms (b) of the heal; slowest of all ${slowest(outcomes)} ms`,
    );
    expectAlive();
    expectClean(outcomes);
    expect(during.length).toBeGreaterThanOrEqual(4);
    for (const outcome of during)
      expect(outcome, JSON.stringify(outcome)).toMatchObject({ code: Code.Unavailable });
    expect(Math.max(recovered.a, recovered.b)).toBeLessThanOrEqual(boundMs);
    for (const name of ['a', 'b'] as const) await signIn(servers[name].process);
  });
});
