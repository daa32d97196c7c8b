// Goal (DESIGN 10): the file library `list` with 1,000,000 files in 10,000 categories answers
// with p99 under 20 ms at 50 concurrent clients (SQLite). A bulk loader fills the admin "file"
// library (100 top-level categories with 99 sub-categories each, files spread at random), then
// 50 keep-alive clients list the root, top-level categories (their whole branch) and leaf
// categories, pages 1-5, as fast as they get answers. The same clients then load a bare node:http
// server answering a canned page: the floor this machine and client allow (printed beside it).
// BENCH_LIST_FILES, BENCH_LIST_REQUESTS override the sizes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { printTable, root, startAtrium } from './lib.mjs';
import {
  adminHeaders,
  atriumLogin,
  percentile,
  request,
  saveUploadResults,
  startBenchServer,
} from './upload-lib.mjs';

const fileCount = Number(process.env.BENCH_LIST_FILES ?? 1_000_000);
const requests = Number(process.env.BENCH_LIST_REQUESTS ?? 20_000);
const concurrency = 50;
const tops = 100;
const childrenPerTop = 99;
const goalP99Ms = 20;

/** A small deterministic generator, so every run loads the same library. */
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function bulkLoad(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const now = Date.now();
  const sha = 'ab'.repeat(32);
  const path = `/data/file/ab/${sha}.txt`;
  const load = db.transaction(() => {
    const blob = db
      .prepare(
        'insert into file_blobs (name, md5, size, sent_size, storage_key, ref_count, created_at) values (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(sha, 'cd'.repeat(16), 1234, 1234, `blobs/ab/${sha}`, fileCount, now).lastInsertRowid;
    const addCategory = db.prepare(
      `insert into file_categories (owner_type, owner_id, library, pid, name, sort, path, file_count, created_at, updated_at)
       values ('admin', 0, 'file', ?, ?, 0, '/', 0, ?, ?)`,
    );
    const setPath = db.prepare('update file_categories set path = ? where id = ?');
    const topIds = [];
    const leafIds = [];
    for (let t = 0; t < tops; t += 1) {
      const top = Number(addCategory.run(0, `Top ${t}`, now, now).lastInsertRowid);
      setPath.run(`/${top}/`, top);
      topIds.push(top);
      for (let c = 0; c < childrenPerTop; c += 1) {
        const child = Number(addCategory.run(top, `Top ${t} / ${c}`, now, now).lastInsertRowid);
        setPath.run(`/${top}/${child}/`, child);
        leafIds.push(child);
      }
    }
    const all = [...topIds, ...leafIds];
    const counts = new Map();
    const random = prng(42);
    const addFile = db.prepare(
      `insert into files (owner_type, owner_id, library, category_id, blob_id, name, ext, size, path, created_at)
       values ('admin', 0, 'file', ?, ?, ?, 'txt', 1234, ?, ?)`,
    );
    for (let i = 0; i < fileCount; i += 1) {
      const category = all[Math.floor(random() * all.length)];
      counts.set(category, (counts.get(category) ?? 0) + 1);
      addFile.run(category, blob, `file ${i}.txt`, path, now + i);
    }
    const setCount = db.prepare('update file_categories set file_count = ? where id = ?');
    for (const [id, count] of counts) setCount.run(count, id);
    db.prepare(
      `insert into file_library_stats (owner_type, owner_id, library, file_count) values ('admin', 0, 'file', ?)`,
    ).run(fileCount);
    return { topIds, leafIds };
  });
  const ids = load();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('analyze');
  db.close();
  return ids;
}

const dataDir = mkdtempSync(join(tmpdir(), 'atrium-bench-list-'));
const migrate = spawnSync(process.execPath, [join(root, 'apps/server/dist/main.js'), 'migrate'], {
  env: { PATH: process.env.PATH, ATRIUM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  encoding: 'utf8',
});
if (migrate.status !== 0) throw new Error(`migrate failed: ${migrate.stderr}`);
const loadStart = Date.now();
const { topIds, leafIds } = bulkLoad(join(dataDir, 'atrium.db'));
const loadSeconds = (Date.now() - loadStart) / 1000;
console.log(
  `loaded ${fileCount} files in ${tops * (childrenPerTop + 1)} categories in ${loadSeconds.toFixed(1)} s`,
);

const server = await startAtrium({ ATRIUM_DATA_DIR: dataDir });
const port = Number(new URL(server.url).port);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const token = await atriumLogin(agent, port, server.adminPassword);
const headers = { ...adminHeaders(token), 'content-type': 'application/json' };

const kinds = {
  root: () => 0,
  branch: (r) => topIds[Math.floor(r() * topIds.length)],
  leaf: (r) => leafIds[Math.floor(r() * leafIds.length)],
};
const kindNames = Object.keys(kinds);
const latencies = { root: [], branch: [], leaf: [] };
let failures = 0;

let sample = '';

async function client(target, index, count, record) {
  const random = prng(1000 + index);
  for (let i = 0; i < count; i += 1) {
    const kind = kindNames[(index + i) % kindNames.length];
    const body = JSON.stringify({
      action: 'list',
      page: 1 + Math.floor(random() * 5),
      categoryId: kinds[kind](random),
    });
    const start = process.hrtime.bigint();
    const res = await request(agent, {
      port: target.port,
      path: '/admin/data/file_manager/file',
      headers,
      body: [Buffer.from(body)],
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const text = res.body.toString();
    const json = JSON.parse(text);
    if (json.code !== 0 || json.data.records.length !== 10) failures += 1;
    else sample ||= text;
    if (record) target.latencies[kind].push(ms);
  }
}

/** Warms up, then runs the 50 clients against `target`; the seconds it took. */
async function load(target) {
  await Promise.all(Array.from({ length: concurrency }, (_, i) => client(target, i, 20, false)));
  const start = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, (_, i) =>
      client(target, i, Math.ceil(requests / concurrency), true),
    ),
  );
  return (Date.now() - start) / 1000;
}

let seconds;
// The same clients against a server that does no work at all: what the harness allows.
const floor = { latencies: { root: [], branch: [], leaf: [] }, seconds: 0 };
try {
  // The warm-up fills caches, JIT and SQLite pages.
  seconds = await load({ port, latencies });
  process.env.CANNED_BODY = sample;
  const canned = await startBenchServer('canned-server.mjs');
  try {
    floor.seconds = await load({ port: canned.port, latencies: floor.latencies });
  } finally {
    await canned.stop();
  }
} finally {
  agent.destroy();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const all = Object.values(latencies)
  .flat()
  .sort((a, b) => a - b);
const row = (name, list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return {
    query: name,
    requests: sorted.length,
    p50ms: +percentile(sorted, 50).toFixed(2),
    p99ms: +percentile(sorted, 99).toFixed(2),
  };
};
const floorAll = Object.values(floor.latencies)
  .flat()
  .sort((a, b) => a - b);
const rows = [
  row('root (all files)', latencies.root),
  row('top-level branch', latencies.branch),
  row('leaf category', latencies.leaf),
  row('all', all),
  row('floor: node:http, canned answer', floorAll),
];
printTable(rows);
const p99 = percentile(all, 99);
const pass = p99 < goalP99Ms && failures === 0;
saveUploadResults('list', {
  files: fileCount,
  categories: tops * (childrenPerTop + 1),
  concurrency,
  requests: all.length,
  requestsPerSecond: +(all.length / seconds).toFixed(0),
  loadSeconds,
  p50ms: +percentile(all, 50).toFixed(2),
  p99ms: +p99.toFixed(2),
  byQuery: rows,
  failures,
  goalP99Ms,
  pass,
  floor: {
    server: 'bare node:http answering a canned list page, same clients',
    requestsPerSecond: +(floorAll.length / floor.seconds).toFixed(0),
    p50ms: +percentile(floorAll, 50).toFixed(2),
    p99ms: +percentile(floorAll, 99).toFixed(2),
  },
});
console.log(
  `list: p50 ${percentile(all, 50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms at ${concurrency} clients, ${(all.length / seconds).toFixed(0)} req/s ${pass ? 'OK' : 'BELOW GOAL'}` +
    ` (floor, node:http with a canned answer: p50 ${percentile(floorAll, 50).toFixed(2)} ms, p99 ${percentile(floorAll, 99).toFixed(2)} ms, ${(floorAll.length / floor.seconds).toFixed(0)} req/s)`,
);
if (!pass) process.exitCode = 1;
