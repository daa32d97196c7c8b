// Helpers shared by the upload and list benches.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { root } from './lib.mjs';

export const MiB = 1024 * 1024;

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ). */
const ticksPerSecond =
  Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** A process's parent and the CPU ticks (user + system, all threads) it has used, from /proc. */
export function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system, all threads) a process has used so far. */
export function processCpuSeconds(pid) {
  return ticksToSeconds(procStat(pid)?.ticks ?? 0);
}

export function ticksToSeconds(ticks) {
  return ticks / ticksPerSecond;
}
export const xsrf = 'bench-xsrf-token';

/**
 * Starts one of bench/servers/*.mjs; resolves with its port and process id, or undefined when it
 * exits with 3 (not installed).
 */
export function startBenchServer(script) {
  const child = spawn(process.execPath, [join(root, 'bench', 'servers', script)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) {
        resolve({
          port: Number(m[1]),
          pid: child.pid,
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
    child.on('exit', (code) =>
      code === 3 ? resolve(undefined) : reject(new Error(`${script} exited (${code}):\n${out}`)),
    );
  });
}

/** One HTTP request over a keep-alive agent; the body is a list of buffers written in turn (no copy). */
export function request(agent, { port, method = 'POST', path, headers = {}, body = [] }) {
  const length = body.reduce((n, b) => n + b.length, 0);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, 'content-length': String(length) },
      },
      (res) => {
        const parts = [];
        res.on('data', (d) => parts.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    for (const b of body) req.write(b);
    req.end();
  });
}

export async function atriumLogin(agent, port, password) {
  const res = await request(agent, {
    port,
    path: '/admin/api/auth/login',
    headers: { 'content-type': 'application/json', 'is-ajax': 'true' },
    body: [Buffer.from(JSON.stringify({ username: 'admin', password }))],
  });
  const json = JSON.parse(res.body.toString());
  if (json.code !== 0) throw new Error(`admin login failed: ${json.msg}`);
  return json.data.token;
}

export function adminHeaders(token) {
  return {
    'admin-api-token': token,
    cookie: `XSRF-TOKEN=${xsrf}`,
    'x-xsrf-token': xsrf,
    'is-ajax': 'true',
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** bench/results/upload.json holds the ingest and list results side by side; each bench updates its key. */
export function saveUploadResults(key, value) {
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'upload.json');
  const current = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  current[key] = value;
  writeFileSync(file, JSON.stringify(current, null, 2) + '\n');
}

/**
 * A client that keeps asking for ordinary answers (the admin page, the public `app/config`) one
 * after another until `stop.done`, pausing `pauseMs` between rounds; resolves with the sorted
 * times in ms. The attack benches run it beside their attack.
 */
export async function quietClient(port, stop, pauseMs = 0) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  while (!stop.done) {
    for (const [method, path] of [
      ['GET', '/admin/'],
      ['POST', '/api/app/config'],
    ]) {
      const started = performance.now();
      await request(agent, {
        port,
        method,
        path,
        headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
        body: method === 'POST' ? [Buffer.from('{}')] : [],
      });
      times.push(performance.now() - started);
    }
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
  agent.destroy();
  return times.sort((a, b) => a - b);
}
