// Issue 32, goals 2 and 3: the cheapest signed-in call (the file manager's `config`) answers with
// p99 within 1.5x a bare Fastify 5 route answering the same bytes, and the admin `app/config`
// with 1,000 rooms and 1,000 models within 1.5x that cheapest call: 50 keep-alive clients each,
// in the same run, the three taking turns in rounds so a busier spell of the shared machine
// weighs on each alike. Atrium's CPU per request is read from /proc beside each.
// BENCH_APP_CONFIG_REQUESTS (per phase and round) and BENCH_APP_CONFIG_ROUNDS override the sizes;
// BENCH_MAIN measures another build (e.g. one from before the change).
import http from 'node:http';
import { loadavg } from 'node:os';
import { printTable, saveResult, startAtrium } from './lib.mjs';
import {
  adminHeaders,
  atriumLogin,
  percentile,
  processCpuSeconds,
  request,
  startBenchServer,
} from './upload-lib.mjs';

const requests = Number(process.env.BENCH_APP_CONFIG_REQUESTS ?? 10_000);
const rounds = Number(process.env.BENCH_APP_CONFIG_ROUNDS ?? 3);
const concurrency = 50;
const rooms = 1000;
const models = 1000;
const goalRatio = 1.5;
const loadBefore = loadavg();

const atrium = await startAtrium();
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const token = await atriumLogin(agent, atrium.port, atrium.adminPassword);
const headers = { ...adminHeaders(token), 'content-type': 'application/json' };

async function call(port, path, body, extraHeaders = headers) {
  const res = await request(agent, {
    port,
    path,
    headers: extraHeaders,
    body: [Buffer.from(JSON.stringify(body))],
  });
  return res.body;
}

async function adminCall(path, body) {
  const json = JSON.parse((await call(atrium.port, path, body)).toString());
  if (json.code !== 0) throw new Error(`${path}: ${json.msg}`);
  return json.data;
}

/** Runs `make(i)` for i in [0, count) with `width` at a time. */
async function inParallel(count, width, make) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await make(next++);
    }),
  );
}

// 1,000 models of one provider and 1,000 rooms, each room on one of them, made as admins do.
const seedStart = Date.now();
const provider = await adminCall('/admin/api/aigc/provider/save', {
  id: 0,
  name: 'Bench provider',
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKey: 'sk-bench',
});
const modelIds = [];
await inParallel(models, 8, async (i) => {
  const model = await adminCall('/admin/api/aigc/model/save', {
    id: 0,
    providerId: provider.id,
    name: `bench-model-${i}`,
    title: `Bench model ${i}`,
  });
  modelIds[i] = model.id;
});
await inParallel(rooms, 8, (i) =>
  adminCall('/admin/api/aigc/chat_room/save', {
    id: 0,
    title: `Room ${i}`,
    description: `<p>Room ${i}: a place to ask about topic ${i}.</p>`,
    modelId: modelIds[i % models],
    prompts: [{ name: 'Start', value: `Tell me about topic ${i}` }],
    sort: i,
  }),
);
console.log(`seeded ${models} models and ${rooms} rooms in ${(Date.now() - seedStart) / 1000} s`);

const cheapest = { path: '/admin/data/file_manager/file', body: { action: 'config' } };
const cannedBody = await call(atrium.port, cheapest.path, cheapest.body);
process.env.CANNED_BODY = cannedBody.toString();
const fastify = await startBenchServer('bare-fastify-server.mjs');

const targets = {
  fastify: { port: fastify.port, pid: fastify.pid, ...cheapest, headers },
  'file-manager config': { port: atrium.port, pid: atrium.pid, ...cheapest, headers },
  'admin app/config': {
    port: atrium.port,
    pid: atrium.pid,
    path: '/admin/api/app/config',
    body: {},
    headers,
  },
};
const names = Object.keys(targets);

/** 50 clients send `count` requests in all to the target; answers their times and CPU used. */
async function load(target, count) {
  const payload = Buffer.from(JSON.stringify(target.body));
  const times = [];
  let sent = 0;
  let failures = 0;
  const cpuBefore = processCpuSeconds(target.pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < count) {
        sent += 1;
        const t0 = performance.now();
        const res = await request(agent, {
          port: target.port,
          path: target.path,
          headers: target.headers,
          body: [payload],
        });
        times.push(performance.now() - t0);
        if (res.status !== 200 || !res.body.subarray(0, 9).toString().startsWith('{"code":0'))
          failures += 1;
      }
    }),
  );
  return {
    times,
    failures,
    seconds: (performance.now() - started) / 1000,
    cpu: processCpuSeconds(target.pid) - cpuBefore,
  };
}

// Warm-up: every target once at a tenth of a round.
for (const name of names) await load(targets[name], Math.ceil(requests / 10));

const per = Object.fromEntries(names.map((n) => [n, { times: [], failures: 0, s: 0, cpu: 0 }]));
const roundP99 = [];
for (let round = 0; round < rounds; round += 1) {
  const p99s = {};
  for (const name of round % 2 === 0 ? names : [...names].reverse()) {
    const r = await load(targets[name], requests);
    per[name].times.push(...r.times);
    per[name].failures += r.failures;
    per[name].s += r.seconds;
    per[name].cpu += r.cpu;
    p99s[name] = percentile(
      [...r.times].sort((a, b) => a - b),
      99,
    );
  }
  roundP99.push(p99s);
}
await fastify.stop();
await atrium.stop();

const summary = {};
for (const name of names) {
  const sorted = per[name].times.sort((a, b) => a - b);
  summary[name] = {
    requests: sorted.length,
    failures: per[name].failures,
    p50ms: +percentile(sorted, 50).toFixed(2),
    p99ms: +percentile(sorted, 99).toFixed(2),
    reqPerS: Math.round(sorted.length / per[name].s),
    cpuUsPerReq: Math.round((per[name].cpu / sorted.length) * 1e6),
  };
}
const ratio = (a, b) => +(summary[a].p99ms / summary[b].p99ms).toFixed(2);
const goals = [
  {
    goal: '2: file-manager config p99 / bare Fastify p99',
    ratio: ratio('file-manager config', 'fastify'),
    perRound: roundP99.map((r) => +(r['file-manager config'] / r.fastify).toFixed(2)),
  },
  {
    goal: '3: admin app/config (1,000 rooms, 1,000 models) p99 / file-manager config p99',
    ratio: ratio('admin app/config', 'file-manager config'),
    perRound: roundP99.map((r) => +(r['admin app/config'] / r['file-manager config']).toFixed(2)),
  },
].map((g) => ({ ...g, max: goalRatio, pass: g.ratio <= goalRatio }));
const failures = names.reduce((n, name) => n + summary[name].failures, 0);

printTable(summary);
printTable(goals.map(({ perRound, ...g }) => ({ ...g, perRound: perRound.join(' / ') })));
const loadAfter = loadavg();
console.log(
  `load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after; ${failures} failed answers`,
);
saveResult('app-config', {
  at: new Date().toISOString(),
  concurrency,
  requestsPerRound: requests,
  rounds,
  rooms,
  models,
  loadAverage: { before: loadBefore, after: loadAfter },
  summary,
  goals,
  failures,
});
if (failures > 0 || !goals.every((g) => g.pass)) process.exitCode = 1;
