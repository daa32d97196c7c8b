import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, shouldRetryUpload, type Envelope } from '@atrium/shared';
import { defaultUploadConfig, type ChunkResponse } from '@atrium/shared/contract/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileClient, md5Of, useUploadConfig } from '../features/library/library.testing';
import { startFaultProxy, type FaultProxy } from '../testing/fault-proxy';
import { createTestApp, type TestApp } from '../testing/test-app';
import { startS3rver, type RunningS3 } from './s3rver.testing';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Random bytes after a zip signature: stored as a .zip (its content check sniffs the signature). */
function zipLike(size: number): Buffer {
  return Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(size - 4)]);
}

/** What a refusal for an outage carries (issue 26): code 1005, the outage, the retry hint. */
function expectOutage(answer: Envelope<unknown>, outage: 'storage' | 'diskFull'): void {
  expect(answer.code, answer.msg).toBe(Code.Unavailable);
  expect(answer.msg).toContain(shouldRetryUpload);
  expect(answer.data).toMatchObject({ error: `unavailable.${outage}`, params: { outage } });
}

async function served(t: TestApp, path: string) {
  return t.app.inject({ method: 'GET', url: path });
}

/** Sends chunks `from`..last one at a time; the last answer. */
async function sendFrom(
  c: FileClient,
  file: { name: string; data: Buffer },
  from: number,
  chunkSize: number,
): Promise<Envelope<ChunkResponse>> {
  const chunks = Math.ceil(file.data.length / chunkSize);
  let last: Envelope<ChunkResponse> | undefined;
  for (let i = from; i < chunks; i += 1) {
    last = (await c.sendChunk(file, i, { chunkSize })).json;
    expect(last.code, last.msg).toBe(0);
  }
  if (!last) throw new Error('nothing sent');
  return last;
}

describe('S3 out of reach (s3rver behind a fault proxy)', () => {
  let s3: RunningS3;
  let proxy: FaultProxy;
  let t: TestApp;
  let c: FileClient;
  const chunkSize = 5 * MiB;

  beforeAll(async () => {
    s3 = await startS3rver();
    const store = new URL(s3.options.endpoint ?? '');
    proxy = await startFaultProxy({ host: store.hostname, port: Number(store.port) });
    t = await createTestApp({ env: { ...s3.env, S3_ENDPOINT: `http://${proxy.address}` } });
    await useUploadConfig(t, { ...defaultUploadConfig, chunkSize });
    c = new FileClient(t, { area: 'member', token: (await t.loginMember()).token }, 'file');
  });
  afterAll(async () => {
    await t.cleanup();
    await proxy.close();
    await s3.stop();
  });

  it('a blackholed store: the chunk is refused within 5 s as retryable, files answer 503; healed, the upload resumes and ends byte-identical', async () => {
    const earlier = { name: 'earlier.zip', data: zipLike(64 * KiB) };
    const stored = await c.upload(earlier, chunkSize);
    expect(stored.code, stored.msg).toBe(0);
    const earlierPath = stored.data.path ?? '';

    const file = { name: 'big.zip', data: zipLike(11 * MiB) };
    expect((await c.init(file)).data.chunkUploaded).toBe(0);
    expect((await c.sendChunk(file, 0, { chunkSize })).json.code).toBe(0);

    proxy.blackhole();
    let started = performance.now();
    const refused = (await c.sendChunk(file, 1, { chunkSize })).json;
    const chunkMs = performance.now() - started;
    expectOutage(refused, 'storage');
    expect(chunkMs).toBeLessThan(5_000);

    started = performance.now();
    const get = await served(t, earlierPath);
    const getMs = performance.now() - started;
    expect(get.statusCode).toBe(503);
    expect(get.headers['retry-after']).toBe('3');
    expect(getMs).toBeLessThan(5_000);

    proxy.heal();
    // The session and its acknowledged chunk survived the refusal: init resumes after it.
    const resumed = await c.init(file);
    expect(resumed.code, resumed.msg).toBe(0);
    expect(resumed.data.chunkUploaded).toBe(1);
    const last = await sendFrom(c, file, 1, chunkSize);
    const path = last.data.path ?? '';
    expect(path).toMatch(/\.zip$/);
    expect(md5Of((await served(t, path)).rawPayload)).toBe(md5Of(file.data));
    expect(md5Of((await served(t, earlierPath)).rawPayload)).toBe(md5Of(earlier.data));
    console.log(
      `S3 blackholed: chunk refused in ${Math.round(chunkMs)} ms, GET in ${Math.round(getMs)} ms`,
    );
  });

  it('a store failing while the last chunk is assembled or promoted: refused as retryable, the last chunk sent again finishes it', async () => {
    for (const kind of ['complete', 'copy'] as const) {
      const file = { name: `finish-${kind}.zip`, data: zipLike(6 * MiB) };
      expect((await c.init(file)).data.chunkUploaded).toBe(0);
      expect((await c.sendChunk(file, 0, { chunkSize })).json.code).toBe(0);
      // More failures than the bounded call retries: the store stays down for this finish.
      s3.failNext(kind, 3);
      expectOutage((await c.sendChunk(file, 1, { chunkSize })).json, 'storage');
      s3.failNext(kind, 0);
      // Every chunk is still held: init asks for the last one again, which finishes the upload.
      const resumed = await c.init(file);
      expect(resumed.data.chunkUploaded, kind).toBe(1);
      const last = await sendFrom(c, file, 1, chunkSize);
      expect(md5Of((await served(t, last.data.path ?? '')).rawPayload)).toBe(md5Of(file.data));
    }
  });
});

/**
 * A real full disk: a small tmpfs mounted as the storage folder (needs root and a mount this
 * container allows; skipped with a message otherwise).
 */
function mountSmallDisk(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return true;
  } catch (error) {
    console.warn(`cannot mount a tmpfs here, the full-disk test is skipped: ${String(error)}`);
    return false;
  }
}

describe('local disk full (a 4 MiB tmpfs as the storage folder)', () => {
  const disk = mkdtempSync(join(tmpdir(), 'atrium-full-disk-'));
  let mounted = false;
  let t: TestApp | undefined;
  const chunkSize = 256 * KiB;

  beforeAll(async () => {
    mounted = process.getuid?.() === 0 && mountSmallDisk(disk, '4m');
    if (mounted) {
      t = await createTestApp({ env: { STORAGE_DIR: disk } });
      await useUploadConfig(t, { ...defaultUploadConfig, chunkSize });
    }
  });
  afterAll(async () => {
    await t?.cleanup();
    if (mounted) execFileSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  it('refuses the chunk as "the disk is full" (diskFull), keeps what is stored, and finishes once space is freed', async (ctx) => {
    if (!t) return ctx.skip();
    const c = new FileClient(t, { area: 'member', token: (await t.loginMember()).token }, 'file');
    const earlier = { name: 'earlier.zip', data: zipLike(100 * KiB) };
    const stored = await c.upload(earlier, chunkSize);
    expect(stored.code, stored.msg).toBe(0);

    // Everything but about one chunk and a half taken by another file.
    const filler = join(disk, 'filler');
    const { bavail, bsize } = statfsSync(disk);
    writeFileSync(filler, Buffer.alloc(bavail * bsize - 384 * KiB));

    const file = { name: 'big.zip', data: zipLike(MiB + 100) };
    expect((await c.init(file)).data.chunkUploaded).toBe(0);
    expect((await c.sendChunk(file, 0, { chunkSize })).json.code).toBe(0);
    const refused = (await c.sendChunk(file, 1, { chunkSize })).json;
    expectOutage(refused, 'diskFull');
    expect(refused.msg).toMatch(/^磁盘已满/);
    // What was stored before is intact and served.
    expect(md5Of((await served(t, stored.data.path ?? '')).rawPayload)).toBe(md5Of(earlier.data));

    rmSync(filler);
    const resumed = await c.init(file);
    expect(resumed.data.chunkUploaded).toBe(1);
    const last = await sendFrom(c, file, 1, chunkSize);
    expect(md5Of((await served(t, last.data.path ?? '')).rawPayload)).toBe(md5Of(file.data));
  });
});
