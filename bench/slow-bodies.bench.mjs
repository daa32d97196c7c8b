// DESIGN 9: slow bodies must not hold the server. From one address, 200 anonymous
// sign-ins each declaring a ~1 MB body and sending 900 KB of it, and 100 admin upload chunks each
// declaring 5 MiB and sending 3 MiB, then silence. Meanwhile a quiet client asks for the admin
// page and `app/config` one after another. Reported: the server's RSS growth, the quiet client's
// times, and how long until the server closed each stalled connection.
// Goals: RSS growth ≤ 64 MB, the quiet client's slowest answer ≤ 1 s, every stalled connection
// closed within 30 s. BENCH_MAIN runs another build of the server (e.g. one from before a change).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { printTable, saveResult, startAtrium } from './lib.mjs';
import { adminHeaders, atriumLogin, MiB, percentile, quietClient } from './upload-lib.mjs';

const anonymous = Number(process.env.BENCH_STALLED_ANONYMOUS ?? 200);
const chunks = Number(process.env.BENCH_STALLED_CHUNKS ?? 100);
const waitMs = Number(process.env.BENCH_STALL_WAIT_MS ?? 30_000);
const goals = { rssGrowthMb: 64, quietMaxMs: 1000, closedWithinMs: 30_000 };
const adminPassword = 'bench-Admin-pass-42';

const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Opens a connection, sends `head` and `sent` bytes of a body declared `declared` long, then nothing. */
function stall(port, path, headers, declared, sent, startedAt) {
  const socket = net.connect(port, '127.0.0.1');
  const head = [
    `POST ${path} HTTP/1.1`,
    'Host: bench',
    ...headers,
    `Content-Length: ${declared}`,
    '',
    '',
  ].join('\r\n');
  socket.write(head);
  socket.write(Buffer.alloc(sent, 0x61));
  let answer = '';
  socket.on('data', (d) => {
    if (answer.length < 512) answer += d.toString('latin1');
  });
  socket.on('error', () => {});
  const closed = new Promise((resolve) =>
    socket.on('close', () => resolve({ afterMs: performance.now() - startedAt, answer })),
  );
  return { socket, closed };
}

function outcomeOf(answer) {
  if (!answer) return 'closed, no answer';
  const status = /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? '?';
  const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  const code = /"code":(-?\d+)/.exec(body)?.[1];
  const msg = /"msg":"([^"]*)"/.exec(body)?.[1];
  return code === undefined ? `HTTP ${status}` : `HTTP ${status} code ${code} ${msg}`;
}

const server = await startAtrium({ ATRIUM_ADMIN_PASSWORD: adminPassword });
try {
  const agent = new http.Agent({ keepAlive: true });
  const token = await atriumLogin(agent, server.port, adminPassword);
  const auth = Object.entries(adminHeaders(token)).map(([k, v]) => `${k}: ${v}`);
  agent.destroy();
  await new Promise((r) => setTimeout(r, 1000));
  const rssBefore = rssMb(server.pid);

  const stop = { done: false };
  const quiet = quietClient(server.port, stop, 50);
  const startedAt = performance.now();
  const stalled = [];
  for (let i = 0; i < anonymous; i++) {
    stalled.push(
      stall(
        server.port,
        '/admin/api/auth/login',
        ['Content-Type: application/json'],
        1_000_000,
        900_000,
        startedAt,
      ),
    );
  }
  const boundary = 'benchboundary';
  for (let i = 0; i < chunks; i++) {
    stalled.push(
      stall(
        server.port,
        '/admin/data/file_manager/file',
        [`Content-Type: multipart/form-data; boundary=${boundary}`, ...auth],
        5 * MiB + 1024,
        3 * MiB,
        startedAt,
      ),
    );
  }

  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMb(server.pid));
  }, 100);
  const results = await Promise.all(
    stalled.map(({ socket, closed }) =>
      Promise.race([
        closed,
        new Promise((r) => setTimeout(r, waitMs)).then(() => {
          socket.destroy();
          return { afterMs: Infinity, answer: 'still open when the bench gave up' };
        }),
      ]),
    ),
  );
  clearInterval(sampler);
  stop.done = true;
  const times = await quiet;

  const outcomes = {};
  for (const { answer } of results) {
    const key = answer === 'still open when the bench gave up' ? answer : outcomeOf(answer);
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  }
  const closedWithin = Math.max(...results.map((r) => r.afterMs));
  const result = {
    stalledAnonymous: anonymous,
    stalledChunks: chunks,
    rssBeforeMb: Math.round(rssBefore),
    rssGrowthMb: Math.round(rssPeak - rssBefore),
    quiet: {
      requests: times.length,
      p50Ms: Number(percentile(times, 50).toFixed(1)),
      maxMs: Number((times.at(-1) ?? 0).toFixed(1)),
    },
    allClosedWithinMs: Number.isFinite(closedWithin) ? Math.round(closedWithin) : null,
    outcomes,
  };
  printTable([
    { measure: 'RSS growth (MB)', value: result.rssGrowthMb, goal: `≤ ${goals.rssGrowthMb}` },
    { measure: 'quiet client p50 (ms)', value: result.quiet.p50Ms, goal: '' },
    { measure: 'quiet client max (ms)', value: result.quiet.maxMs, goal: `≤ ${goals.quietMaxMs}` },
    {
      measure: 'all stalled closed within (ms)',
      value: result.allClosedWithinMs ?? `> ${waitMs}`,
      goal: `≤ ${goals.closedWithinMs}`,
    },
  ]);
  console.log(outcomes);
  if (!process.env.BENCH_MAIN) saveResult('slow-bodies', result);
  const met =
    result.rssGrowthMb <= goals.rssGrowthMb &&
    result.quiet.maxMs <= goals.quietMaxMs &&
    result.allClosedWithinMs !== null &&
    result.allClosedWithinMs <= goals.closedWithinMs;
  if (!met) process.exitCode = 1;
} finally {
  await server.stop();
}
