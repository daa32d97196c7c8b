// Helpers for benchmarks: boot a real built Atrium server and record results.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts `apps/server/dist/main.js start` (or the build BENCH_MAIN names, e.g. one from before a
 * change) on a free port with a fresh data folder; ATRIUM_WEB_DIR passes through.
 */
export function startAtrium(extraEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-bench-'));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    HOST: '127.0.0.1',
    ATRIUM_DATA_DIR: dataDir,
    ATRIUM_ADMIN_PASSWORD: 'bench-Admin-pass-42',
    LOG_LEVEL: 'warn',
    ...(process.env.ATRIUM_WEB_DIR ? { ATRIUM_WEB_DIR: process.env.ATRIUM_WEB_DIR } : {}),
    ...extraEnv,
  };
  const main = process.env.BENCH_MAIN ?? join(root, 'apps/server/dist/main.js');
  // Node's own flags for the Atrium under test, e.g. BENCH_NODE_ARGS="--cpu-prof
  // --cpu-prof-dir=/tmp/prof" to see where its time goes (the profile is written when it stops).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, main, 'start'], { env });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d.toString();
      const m = /Atrium listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        resolve({
          url: `http://127.0.0.1:${m[1]}/`,
          port: Number(m[1]),
          pid: child.pid,
          dataDir,
          env,
          adminPassword: env.ATRIUM_ADMIN_PASSWORD,
          /** What it has printed so far (warnings and errors: LOG_LEVEL=warn). */
          output: () => out,
          stop: () =>
            new Promise((r) => {
              if (child.exitCode !== null) return r();
              child.once('exit', r);
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`Atrium exited (${code}):\n${out}`)));
  });
}

export function saveResult(name, result) {
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(result, null, 2) + '\n');
}

/** p50, p95 and mean of latency samples (ms), to two decimals. */
export function latencyStats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = samples.reduce((s, v) => s + v, 0) / samples.length;
  return { p50: +at(0.5).toFixed(2), p95: +at(0.95).toFixed(2), mean: +mean.toFixed(2) };
}

export function printTable(rows) {
  console.table(rows);
}

/** A small deterministic generator, so every run loads the same data. */
export function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const XSRF = 'bench-xsrf';

/** A signed-in caller's headers: its token for the area, the double-submit XSRF pair. */
export function apiHeaders(token, area = 'member', { json = true } = {}) {
  return {
    ...(json ? { 'content-type': 'application/json' } : {}),
    'is-ajax': 'true',
    [area === 'admin' ? 'admin-api-token' : 'api-token']: token,
    cookie: `XSRF-TOKEN=${XSRF}`,
    'x-xsrf-token': XSRF,
  };
}

/** POSTs `body` as JSON to `base + path` (anonymously when there is no token); answers the response. */
export function apiPost(base, path, body, token, area = 'member') {
  return fetch(base + path, {
    method: 'POST',
    headers: token
      ? apiHeaders(token, area)
      : { 'content-type': 'application/json', 'is-ajax': 'true' },
    body: JSON.stringify(body),
  });
}

/** apiPost, then the envelope's data; a non-zero code throws with the path and its message. */
export async function apiCall(base, path, body, token, area = 'member') {
  const json = await (await apiPost(base, path, body, token, area)).json();
  if (json.code !== 0) throw new Error(`${path}: ${json.msg}`);
  return json.data;
}

/**
 * Seeds what a chat bench needs, as the admin: a provider at `providerUrl`, its `bench-model`
 * (with `modelFields` added), a room on it, quotas lifted when `unlimited`, and one member per
 * name in `members`. Answers the admin token, the room and the members' tokens by name.
 */
export async function seedChatRoom(
  base,
  { adminPassword, providerUrl, modelFields = {}, unlimited = false, members = [] },
) {
  const admin = (
    await apiCall(base, '/admin/api/auth/login', { username: 'admin', password: adminPassword })
  ).token;
  const asAdmin = (path, body) => apiCall(base, path, body, admin, 'admin');
  const provider = await asAdmin('/admin/api/aigc/provider/save', {
    id: 0,
    name: 'Bench',
    baseUrl: providerUrl,
    apiKey: 'sk-bench',
  });
  const model = await asAdmin('/admin/api/aigc/model/save', {
    id: 0,
    providerId: provider.id,
    name: 'bench-model',
    title: 'Bench',
    ...modelFields,
  });
  const room = await asAdmin('/admin/api/aigc/chat_room/save', {
    id: 0,
    title: 'Bench room',
    modelId: model.id,
  });
  if (unlimited)
    await asAdmin('/admin/api/aigc/usage/quota_save', {
      messagesPerDay: 0,
      tokensPerDay: 0,
      messagesPerMinute: 0,
    });
  const tokens = {};
  for (const username of members) {
    const password = 'bench-Member-pass-42';
    await asAdmin('/admin/api/members/create', { username, password });
    tokens[username] = (await apiCall(base, '/api/auth/login', { username, password })).token;
  }
  return { admin, room, members: tokens };
}
