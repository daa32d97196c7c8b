import { createHash, randomBytes } from 'node:crypto';
import { defaultUploadConfig } from '@atrium/shared/contract/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type RunningS3 } from '../../../storage/s3rver.testing';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { FileClient, useUploadConfig } from '../library.testing';
import { orphanGraceMs } from './upload.service';
import { jpegWithMetadata, readMetadata } from './strip-metadata/fixtures.testing';
import { stripMetadata } from './strip-metadata/index';

const MiB = 1024 * 1024;
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The upload engine on S3 storage (s3rver in-process): chunk N is part N + 1 of a multipart upload. */
describe('chunked upload on S3 storage', () => {
  let s3: RunningS3;
  let t: TestApp;
  let c: FileClient;

  beforeAll(async () => {
    s3 = await startS3rver();
    t = await createTestApp({
      env: s3.env,
    });
    // A smaller chunk size is raised to S3's 5 MiB minimum part size.
    await useUploadConfig(t, { ...defaultUploadConfig, chunkSize: 1024 });
    c = new FileClient(t, { area: 'member', token: (await t.loginMember()).token }, 'file');
  });
  afterAll(async () => {
    await t.cleanup();
    await s3.stop();
  });

  it('answers the chunk size S3 needs', async () => {
    const config = await c.call<{ chunkSize: number }>({ action: 'config' });
    expect(config.data.chunkSize).toBe(5 * MiB);
  });

  it('resumes, takes chunks out of order, verifies and serves the exact bytes; delete frees them', async () => {
    const data = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(11 * MiB)]);
    // Plain random bytes after a zip signature: declare it a zip.
    const file = { name: 'archive.zip', data };
    expect((await c.init(file)).data).toMatchObject({
      chunkUploaded: 0,
      chunks: 3,
      chunkSize: 5 * MiB,
    });
    expect((await c.sendChunk(file, 1, { chunkSize: 5 * MiB })).json).toMatchObject({
      code: 0,
      data: { chunkUploaded: 0 },
    });
    expect((await c.init(file)).data.chunkUploaded).toBe(0);
    expect((await c.sendChunk(file, 0, { chunkSize: 5 * MiB })).json).toMatchObject({
      code: 0,
      data: { chunkUploaded: 2 },
    });
    expect((await c.init(file)).data.chunkUploaded).toBe(2);
    const last = await c.sendChunk(file, 2, { chunkSize: 5 * MiB });
    expect(last.json.code, last.json.msg).toBe(0);
    const path = last.json.data.path ?? '';
    expect(path).toMatch(/^\/data\/file\/[0-9a-f]{24}\/[^/]+\.zip$/);

    const served = await t.app.inject({ method: 'GET', url: path });
    expect(served.statusCode).toBe(200);
    expect(sha(served.rawPayload)).toBe(sha(data));
    const range = await t.app.inject({
      method: 'GET',
      url: path,
      headers: { range: `bytes=${5 * MiB - 2}-${5 * MiB + 1}` },
    });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.equals(data.subarray(5 * MiB - 2, 5 * MiB + 2))).toBe(true);

    const saved = await c.call<{ id: number }>({
      action: 'save',
      path,
      name: 'archive.zip',
      size: data.length,
      categoryId: 0,
    });
    expect(saved.code).toBe(0);
    expect((await c.call({ action: 'fileDelete', id: String(saved.data.id) })).code).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    expect(
      await t.app.features.files.storage.stat(`blobs/${sha(data).slice(0, 2)}/${sha(data)}`),
    ).toBeUndefined();
  });

  it('sends every chunk as a part with its Content-MD5: a part damaged on the way is refused, not kept, and sent again', async () => {
    const data = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(7 * MiB)]);
    const file = { name: 'checked.zip', data };
    await c.init(file);
    const before = s3.parts.length;
    s3.damageNextParts(1);
    const damaged = await c.sendChunk(file, 0, { chunkSize: 5 * MiB });
    expect(damaged.json.code).not.toBe(0);
    expect(damaged.json.data).toMatchObject({ error: 'files.chunkDamaged', params: { index: 0 } });
    // Nothing of it counts: the upload still starts at chunk 0.
    expect((await c.init(file)).data.chunkUploaded).toBe(0);

    expect((await c.sendChunk(file, 0, { chunkSize: 5 * MiB })).json.code).toBe(0);
    const last = await c.sendChunk(file, 1, { chunkSize: 5 * MiB });
    expect(last.json.code, last.json.msg).toBe(0);
    const served = await t.app.inject({ method: 'GET', url: last.json.data.path ?? '' });
    expect(sha(served.rawPayload)).toBe(sha(data));
    const sent = s3.parts.slice(before);
    expect(sent.map((p) => p.partNumber)).toEqual([1, 1, 2]);
    expect(sent.every((p) => p.contentMd5)).toBe(true);
  });

  it('the sweeper aborts a multipart upload nothing refers to: its parts stop costing storage', async () => {
    const { storage, uploads } = t.app.features.files;
    const unfinished = async () => {
      const ids: string[] = [];
      for await (const page of storage.list('staging'))
        ids.push(...page.flatMap((o) => (o.uploadId ? [o.uploadId] : [])));
      return ids;
    };
    // Begun and given a part, then left: the process died before its session was recorded.
    const staging = await storage.beginUpload();
    await storage.writeChunk(staging, 0, 5 * MiB, randomBytes(5 * MiB));
    expect(await unfinished()).toContain(staging.uploadId);
    // Within the grace period it may still be an upload being opened: kept.
    await uploads.sweep(Date.now());
    expect(await unfinished()).toContain(staging.uploadId);
    const swept = await uploads.sweep(Date.now() + orphanGraceMs + 60_000);
    expect(swept.orphans).toBeGreaterThanOrEqual(1);
    expect(await unfinished()).not.toContain(staging.uploadId);
  });

  it('stores an image without its GPS, device and time metadata on S3 too; the same bytes again are instant', async () => {
    const images = new FileClient(t, c.as, 'image');
    const jpeg = await jpegWithMetadata();
    const done = await images.upload({ name: 'trip.jpg', data: jpeg }, 5 * MiB);
    expect(done.code, done.msg).toBe(0);
    const stripped = stripMetadata(jpeg, 'jpg');
    expect(stripped.length).toBeLessThan(jpeg.length);
    const served = await t.app.inject({ method: 'GET', url: done.data.path ?? '' });
    expect(served.rawPayload.equals(stripped)).toBe(true);
    expect((await readMetadata(served.rawPayload)).gps).toBeUndefined();
    const again = await images.init({ name: 'trip again.jpg', data: jpeg });
    expect(again.data.chunkUploaded).toBe(again.data.chunks);
    // Another owner: a full upload, de-duplicated into the same blob.
    const other = new FileClient(
      t,
      { area: 'member', token: (await t.loginMember()).token },
      'image',
    );
    const second = await other.upload({ name: 'shared.jpg', data: jpeg }, 5 * MiB);
    expect(second.code, second.msg).toBe(0);
    const twice = await t.app.inject({ method: 'GET', url: second.data.path ?? '' });
    expect(twice.rawPayload.equals(stripped)).toBe(true);
    // Nothing left in staging for either.
    const staged: string[] = [];
    for await (const page of t.app.features.files.storage.list('staging'))
      staged.push(...page.map((o) => o.key));
    expect(staged).toEqual([]);
  });

  it('a wrong md5 is caught on S3 too', async () => {
    const data = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(6 * MiB)]);
    const file = { name: 'wrong.zip', data, md5: '0'.repeat(32) };
    await c.init(file);
    await c.sendChunk(file, 0, { chunkSize: 5 * MiB });
    const last = await c.sendChunk(file, 1, { chunkSize: 5 * MiB });
    expect(last.json.msg).toContain('ShouldRetryUpload');
  });
});
