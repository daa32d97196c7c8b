// Helpers of upload-browser.bench.mjs: the file it uploads, the CPU time of a process tree, the
// upload settings it needs, and the end of an upload in the page.
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, renameSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MiB, adminHeaders, procStat, request, ticksToSeconds } from './upload-lib.mjs';

/**
 * The file: an MP4 header first, so Atrium's content check sees the video it claims to be, and
 * random bytes after it. Each upload renames it and changes 8 bytes (`next`), so Atrium never
 * answers a repeat as an instant upload and the list shows each under its own name. `uploads`:
 * how many `next` has handed out.
 */
export function benchFile(size) {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-browser-bench-'));
  let file = join(dir, 'upload.mp4');
  const fd = openSync(file, 'w');
  const block = Buffer.allocUnsafe(8 * MiB);
  for (let at = 0; at < size; at += block.length) {
    randomFillSync(block);
    if (at === 0)
      Buffer.from('000000186674797069736f6d0000020069736f6d6d703432', 'hex').copy(block, 0);
    writeSync(fd, block, 0, Math.min(block.length, size - at));
  }
  closeSync(fd);
  let uploads = 0;
  const next = (label) => {
    uploads += 1;
    const name = `bench-${uploads}-${label}.mp4`;
    const renamed = join(dir, name);
    renameSync(file, renamed);
    file = renamed;
    const handle = openSync(file, 'r+');
    const mark = Buffer.alloc(8);
    mark.writeDoubleBE(Date.now() + uploads);
    writeSync(handle, mark, 0, 8, 64);
    closeSync(handle);
    return { path: file, name };
  };
  return { dir, next, uploads: () => uploads };
}

/** The page's promise `window.benchUpload`, or a failure once `timeoutMs` has passed. */
export function uploadEnd(page, timeoutMs) {
  let timer;
  return Promise.race([
    page.evaluate(() => window.benchUpload),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no end after ${timeoutMs} ms`)), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
}

// CPU time from /proc (upload-lib.mjs), of a process and of a whole process tree (Chromium's).
/** Ticks of every process below `rootPid` (and itself), by pid. */
export function treeTicks(rootPid) {
  const all = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat) all.set(Number(entry), stat);
  }
  const out = new Map();
  const inTree = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; hops++) {
      if (p === rootPid) return true;
      p = all.get(p)?.ppid ?? 0;
    }
    return false;
  };
  for (const [pid, stat] of all) if (inTree(pid)) out.set(pid, stat.ticks);
  return out;
}
/** Seconds spent by the tree since `before` (processes started since count from zero). */
export function treeSecondsSince(rootPid, before) {
  let ticks = 0;
  for (const [pid, now] of treeTicks(rootPid)) ticks += now - (before.get(pid) ?? 0);
  return ticksToSeconds(ticks);
}

/** The upload setting must let the file into the video library in 5 MiB chunks. */
export async function prepareSettings(agent, port, token, { chunkSize, parallelChunks, size }) {
  const call = async (path, body) => {
    const res = await request(agent, {
      port,
      path: `/admin/api/settings/upload/${path}`,
      headers: { ...adminHeaders(token), 'content-type': 'application/json' },
      body: [Buffer.from(JSON.stringify(body))],
    });
    const json = JSON.parse(res.body.toString());
    if (json.code !== 0) throw new Error(`settings/upload/${path}: ${json.msg}`);
    return json.data.config;
  };
  let config = await call('get', {});
  const video = config.category.video;
  const wanted = {
    ...config,
    chunkSize,
    parallelChunks: parallelChunks ?? config.parallelChunks,
    category: {
      ...config.category,
      video: {
        extensions: video.extensions.includes('mp4')
          ? video.extensions
          : [...video.extensions, 'mp4'],
        maxSize: Math.max(video.maxSize, size),
      },
    },
  };
  if (JSON.stringify(wanted) !== JSON.stringify(config))
    config = await call('save', { config: wanted });
  return config;
}
