// Goal (DESIGN 10): ingest of a 1 GiB upload in 5 MiB chunks over loopback, verified and stored,
// at least 1.0x @tus/server with its file store and at least 0.9x a bare node:http server writing
// the same bytes to disk, all measured in the same run. Beside the speed, each server's CPU time
// (user + system, all its threads) per GiB received, and the client's. Each server runs in its own process;
// the client sends chunks one after another, as the upload button does. The servers take turns
// (in reverse order every other run) and each starts with the disk caught up (`sync`).
// BENCH_UPLOAD_MIB sets the size (default 1024), BENCH_UPLOAD_RUNS the runs per server (best kept).
import { spawnSync } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import { printTable, startAtrium } from './lib.mjs';
import {
  MiB,
  adminHeaders,
  atriumLogin,
  processCpuSeconds,
  request,
  saveUploadResults,
  startBenchServer,
} from './upload-lib.mjs';

const size = Number(process.env.BENCH_UPLOAD_MIB ?? 1024) * MiB;
const runs = Number(process.env.BENCH_UPLOAD_RUNS ?? 3);
const chunkSize = 5 * MiB;
const chunks = Math.ceil(size / chunkSize);

// An MP4 header first so Atrium's content check sees the video it claims to be; random after it.
const data = randomFillSync(Buffer.allocUnsafe(size));
Buffer.from('000000186674797069736f6d0000020069736f6d6d703432', 'hex').copy(data, 0);
let md5 = '';
let sha256 = '';
/** Each run uploads different bytes, or Atrium would answer the repeat as an instant upload. */
function prepareRun(run) {
  data.writeUInt32BE(run, 64);
  md5 = createHash('md5').update(data).digest('hex');
  sha256 = createHash('sha256').update(data).digest('hex');
}
const chunkAt = (i) => data.subarray(i * chunkSize, Math.min(size, (i + 1) * chunkSize));

/** The server process of the contender being timed (see `timed`). */
let serverPid = 0;
const cpu = { atrium: [], bare: [], bareMd5: [], tus: [] };
const clientCpu = { atrium: [], bare: [], bareMd5: [], tus: [] };

/** Times `fn`, and notes the CPU seconds per GiB the server and this client spent meanwhile. */
async function timed(fn, name) {
  const server = processCpuSeconds(serverPid);
  const client = process.cpuUsage();
  const start = process.hrtime.bigint();
  await fn();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const gib = size / (1024 * MiB);
  cpu[name].push((processCpuSeconds(serverPid) - server) / gib);
  const used = process.cpuUsage(client);
  clientCpu[name].push((used.user + used.system) / 1e6 / gib);
  return seconds;
}

async function atrium(agent, port, token, run) {
  const url = '/admin/data/file_manager/video';
  const name = `bench-${run}.mp4`;
  const headers = adminHeaders(token);
  let path;
  const seconds = await timed(async () => {
    const init = await request(agent, {
      port,
      path: url,
      headers: { ...headers, 'content-type': 'application/json' },
      body: [Buffer.from(JSON.stringify({ action: 'init', name, type: 'video/mp4', size, md5 }))],
    });
    const answer = JSON.parse(init.body.toString());
    if (answer.code !== 0 || answer.data.chunkUploaded !== 0) throw new Error(`init: ${init.body}`);
    const boundary = '----atriumbench';
    for (let i = 0; i < chunks; i += 1) {
      const fields = {
        id: 'WU_FILE_0',
        name,
        type: 'video/mp4',
        size: String(size),
        chunks: String(chunks),
        chunk: String(i),
        md5,
      };
      let head = '';
      for (const [k, v] of Object.entries(fields))
        head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
      head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const res = await request(agent, {
        port,
        path: url,
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: [Buffer.from(head), chunkAt(i), Buffer.from(`\r\n--${boundary}--\r\n`)],
      });
      const json = JSON.parse(res.body.toString());
      if (json.code !== 0) throw new Error(`chunk ${i}: ${json.msg}`);
      if (i === chunks - 1) path = json.data.path;
    }
  }, 'atrium');
  if (!path) throw new Error('Atrium answered no path for the finished upload');
  // The stored bytes are checked outside the timing.
  const served = createHash('sha256');
  await new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.on('data', (d) => served.update(d));
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  if (served.digest('hex') !== sha256) throw new Error('Atrium served different bytes');
  // Filed and deleted again, so the stored blob goes (see `removeAfter`).
  const json = { ...headers, 'content-type': 'application/json' };
  const saved = await request(agent, {
    port,
    path: url,
    headers: json,
    body: [Buffer.from(JSON.stringify({ action: 'save', path, name }))],
  });
  const id = JSON.parse(saved.body.toString()).data?.id;
  const deleted = await request(agent, {
    port,
    path: url,
    headers: json,
    body: [Buffer.from(JSON.stringify({ action: 'fileDelete', id }))],
  });
  if (JSON.parse(deleted.body.toString()).code !== 0)
    throw new Error(`Atrium could not delete the upload: ${deleted.body}`);
  return seconds;
}

/** The bare server, or with `verify` the bare server that checks the MD5 (bare-md5-server.mjs). */
async function bare(agent, port, run, verify = false) {
  const seconds = await timed(
    async () => {
      for (let i = 0; i < chunks; i += 1) {
        const check = verify && i === chunks - 1 ? `&md5=${md5}` : '';
        const res = await request(agent, {
          port,
          method: 'PUT',
          path: `/?id=bare${run}&offset=${i * chunkSize}${check}`,
          body: [chunkAt(i)],
        });
        if (res.status !== 200) throw new Error(`bare chunk ${i}: ${res.status} ${res.body}`);
      }
    },
    verify ? 'bareMd5' : 'bare',
  );
  await request(agent, { port, method: 'DELETE', path: `/?id=bare${run}` });
  return seconds;
}

async function tus(agent, port) {
  let location = '';
  const seconds = await timed(async () => {
    const created = await request(agent, {
      port,
      path: '/files',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size) },
    });
    if (created.status !== 201) throw new Error(`tus create: ${created.status} ${created.body}`);
    location = new URL(String(created.headers.location), `http://127.0.0.1:${port}`).pathname;
    for (let i = 0; i < chunks; i += 1) {
      const res = await request(agent, {
        port,
        method: 'PATCH',
        path: location,
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': String(i * chunkSize),
          'content-type': 'application/offset+octet-stream',
        },
        body: [chunkAt(i)],
      });
      if (res.status !== 204) throw new Error(`tus chunk ${i}: ${res.status} ${res.body}`);
    }
  }, 'tus');
  const removed = await request(agent, {
    port,
    method: 'DELETE',
    path: location,
    headers: { 'tus-resumable': '1.0.0' },
  });
  if (removed.status !== 204) throw new Error(`tus delete: ${removed.status} ${removed.body}`);
  return seconds;
}

const results = { atrium: [], bare: [], bareMd5: [], tus: [] };
/**
 * One connection, kept alive through a contender's upload. Each upload gets a fresh one: a
 * connection left idle while the others run is closed by its server (keep-alive timeout), and
 * reusing it as that happens fails the first request with EPIPE.
 */
const newAgent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });
const withAgent = async (fn) => {
  const agent = newAgent();
  try {
    return await fn(agent);
  } finally {
    agent.destroy();
  }
};

const atriumServer = await startAtrium();
const port = Number(new URL(atriumServer.url).port);
const token = await withAgent((agent) => atriumLogin(agent, port, atriumServer.adminPassword));
const bareServer = await startBenchServer('bare-server.mjs');
const bareMd5Server = await startBenchServer('bare-md5-server.mjs');
const tusServer = await startBenchServer('tus-server.mjs');
try {
  for (let run = 0; run < runs; run += 1) {
    prepareRun(run);
    const contenders = [
      async () => {
        serverPid = bareServer.pid;
        results.bare.push(await withAgent((agent) => bare(agent, bareServer.port, run)));
      },
      async () => {
        serverPid = bareMd5Server.pid;
        results.bareMd5.push(
          await withAgent((agent) => bare(agent, bareMd5Server.port, run, true)),
        );
      },
      async () => {
        if (!tusServer) return;
        serverPid = tusServer.pid;
        results.tus.push(await withAgent((agent) => tus(agent, tusServer.port)));
      },
      async () => {
        serverPid = atriumServer.pid;
        results.atrium.push(await withAgent((agent) => atrium(agent, port, token, run)));
      },
    ];
    // Each run starts with the next server (so each gets to go first). Each upload is deleted
    // again once timed, and the next starts with the disk caught up: otherwise whoever goes next
    // pays for the kernel writing back the previous gigabyte, or for memory the kernel has to get
    // afresh because the page cache still holds all the earlier uploads (on a VM, fresh memory
    // costs seconds per GiB and would decide the result more than the servers do).
    const first = run % contenders.length;
    for (const contender of [...contenders.slice(first), ...contenders.slice(0, first)]) {
      spawnSync('sync');
      await contender();
    }
  }
} finally {
  await atriumServer.stop();
  rmSync(atriumServer.dataDir, { recursive: true, force: true });
  await bareServer.stop();
  await bareMd5Server.stop();
  await tusServer?.stop();
}

const mibps = (list) => (list.length ? +(size / MiB / Math.min(...list)).toFixed(1) : null);
const names = ['atrium', 'bare', 'bareMd5', 'tus'];
const summary = Object.fromEntries(names.map((name) => [name, mibps(results[name])]));
const ratio = (a, b) => (a !== null && b ? +(a / b).toFixed(2) : null);
const vsBare = ratio(summary.atrium, summary.bare);
const vsTus = ratio(summary.atrium, summary.tus);
/** The least CPU seconds per GiB a contender's runs took (the server's, and this client's). */
const least = (list) => (list.length ? +Math.min(...list).toFixed(2) : null);
const serverCpu = Object.fromEntries(names.map((name) => [name, least(cpu[name])]));
const clientCpuOf = Object.fromEntries(names.map((name) => [name, least(clientCpu[name])]));
const cpuVsBare = ratio(serverCpu.atrium, serverCpu.bare);
const row = (server, name, goal) => ({
  server,
  'MiB/s': summary[name] ?? 'not installed',
  'server CPU s/GiB': serverCpu[name],
  'client CPU s/GiB': clientCpuOf[name],
  goal,
});
printTable([
  row('Atrium (verified: MD5 + type)', 'atrium', ''),
  row('bare node:http to disk', 'bare', `Atrium >= 0.9x: ${vsBare}x (CPU ${cpuVsBare}x)`),
  row(
    'bare + MD5 of the bytes (no other work)',
    'bareMd5',
    `Atrium ${ratio(summary.atrium, summary.bareMd5)}x; it ${ratio(summary.bareMd5, summary.bare)}x bare`,
  ),
  row('@tus/server + @tus/file-store', 'tus', `Atrium >= 1.0x: ${vsTus ?? 'n/a'}x`),
]);
const pass = vsBare !== null && vsBare >= 0.9 && (vsTus === null || vsTus >= 1.0);
saveUploadResults('ingest', {
  sizeMiB: size / MiB,
  chunkMiB: chunkSize / MiB,
  runs,
  seconds: results,
  mibPerSecond: summary,
  ratioVsBare: vsBare,
  ratioVsTus: vsTus,
  ratioVsBareMd5: ratio(summary.atrium, summary.bareMd5),
  bareMd5VsBare: ratio(summary.bareMd5, summary.bare),
  serverCpuSecondsPerGiB: serverCpu,
  serverCpuVsBare: cpuVsBare,
  clientCpuSecondsPerGiB: clientCpuOf,
  tusInstalled: tusServer !== undefined,
  pass,
});
console.log(
  `upload ingest: ${summary.atrium} MiB/s, ${vsBare}x bare, ${vsTus ?? 'n/a (tus not installed)'}x tus ${pass ? 'OK' : 'BELOW GOAL'}`,
);
if (!pass) process.exitCode = 1;
