import { randomUUID } from 'node:crypto';
import { Code } from '@atrium/shared';
import {
  defaultUploadConfig,
  type FileRecord,
  type ListResponse,
  type UploadConfig,
} from '@atrium/shared/contract/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesDb, type Owner } from '../library.tables';
import { Instances } from '../../../instances/instances';
import type { Storage } from '../../../storage/index';
import { testDbKinds } from '../../../testing/db';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { FileClient, md5Of, testChunkSize, useUploadConfig } from '../library.testing';
import {
  copyright,
  heicWithMetadata,
  jpegWithMetadata,
  orientation,
  pngChunk,
  pngWithMetadata,
  readMetadata,
  secrets,
  webpWithMetadata,
} from './strip-metadata/fixtures.testing';
import { stripMetadata } from './strip-metadata/index';
import { maxStrippedSize, UploadService } from './upload.service';

/** The test libraries; the image library also takes HEIC (an admin's addition) and keeps or strips. */
function config(keepMetadata: boolean | undefined): UploadConfig {
  const image = defaultUploadConfig.category.image;
  return {
    chunkSize: testChunkSize,
    parallelChunks: 3,
    category: {
      ...defaultUploadConfig.category,
      image: {
        ...image,
        extensions: [...image.extensions, 'heic', 'heif'],
        ...(keepMetadata === undefined ? {} : { keepMetadata }),
      },
    },
  };
}

async function expectPrivate(served: Buffer): Promise<void> {
  const found = await readMetadata(served);
  expect(found.gps).toBeUndefined();
  expect(found.exif).toBeUndefined();
  expect(found.xmp).toBeUndefined();
  expect(found.ifd0).toEqual({ Orientation: orientation, Copyright: copyright });
  const text = served.toString('latin1');
  for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
}

describe.each(testDbKinds)('uploads are private by default (%s)', (kind) => {
  let t: TestApp;
  let jpeg: Buffer;

  const db = () => filesDb(t.db);
  const blobsOf = (data: Buffer) =>
    db().selectFrom('fileBlobs').selectAll().where('md5', '=', md5Of(data)).execute();
  const serve = async (path: string | undefined) => {
    const res = await t.app.inject({ method: 'GET', url: path ?? '' });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };
  const member = async (library = 'image') =>
    new FileClient(t, { area: 'member', token: (await t.loginMember()).token }, library);

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t, config(undefined));
    jpeg = await jpegWithMetadata();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('serves a JPEG without GPS, device and time metadata; the MD5 and the answer are the sent bytes', async () => {
    const c = await member();
    const file = { name: 'holiday.jpg', data: jpeg };
    expect(file.data.length).toBeGreaterThan(testChunkSize);
    const done = await c.upload(file);
    expect(done.code, done.msg).toBe(0);
    expect(done.data.data).toEqual({ filename: 'holiday.jpg', size: jpeg.length });
    const served = await serve(done.data.path);
    const stripped = stripMetadata(jpeg, 'jpg');
    expect(served.equals(stripped)).toBe(true);
    await expectPrivate(served);

    // Filed, the library lists the size of what it serves.
    const saved = await c.call<FileRecord>({
      action: 'save',
      path: done.data.path,
      name: file.name,
      size: jpeg.length,
      categoryId: 0,
    });
    expect(saved.code, saved.msg).toBe(0);
    expect(saved.data.size).toBe(stripped.length);
    const list = await c.call<ListResponse>({ action: 'list', page: 1, categoryId: 0 });
    expect(list.data.records[0]).toMatchObject({ path: done.data.path, size: stripped.length });

    const [blob] = await blobsOf(jpeg);
    expect(blob).toMatchObject({ size: stripped.length, sentSize: jpeg.length, stripped: 1 });

    // The same image again: an instant upload (keyed on the sent MD5 and size), served stripped.
    const again = await c.init({ name: 'again.jpg', data: jpeg });
    expect(again.code).toBe(0);
    expect(again.data.chunkUploaded).toBe(again.data.chunks);
    expect((await serve(again.data.path)).equals(stripped)).toBe(true);
  });

  it('a second owner (another member, the admin library) uploads the same bytes: stored once, stripped', async () => {
    const other = await member();
    const done = await other.upload({ name: 'same.jpg', data: jpeg });
    expect(done.code, done.msg).toBe(0);
    expect(done.data.chunkUploaded).toBe(done.data.chunks);
    const stripped = stripMetadata(jpeg, 'jpg');
    expect((await serve(done.data.path)).equals(stripped)).toBe(true);

    const admin = new FileClient(
      t,
      { area: 'admin', token: (await t.loginAdmin()).token },
      'image',
    );
    const byAdmin = await admin.upload({ name: 'site.jpg', data: jpeg });
    expect(byAdmin.code, byAdmin.msg).toBe(0);
    expect((await serve(byAdmin.data.path)).equals(stripped)).toBe(true);
    // De-duplicated inside storage: one blob for all three owners.
    expect(await blobsOf(jpeg)).toHaveLength(1);
  });

  it('PNG, WebP and HEIC (once an admin allows it) are stripped too, in both areas', async () => {
    const admin = new FileClient(
      t,
      { area: 'admin', token: (await t.loginAdmin()).token },
      'image',
    );
    const c = await member();
    const heic = (await heicWithMetadata()).data;
    for (const [client, name, data] of [
      [c, 'screen.png', await pngWithMetadata()],
      [admin, 'banner.webp', await webpWithMetadata()],
      [c, 'phone.heic', heic],
      [admin, 'phone.heif', heic],
    ] as const) {
      const done = await client.upload({ name, data });
      expect(done.code, `${name}: ${done.msg}`).toBe(0);
      const served = await serve(done.data.path);
      const ext = name.slice(name.lastIndexOf('.') + 1);
      expect(served.equals(stripMetadata(data, ext)), name).toBe(true);
      expect(served.equals(data), name).toBe(false);
      const text = served.toString('latin1');
      for (const secret of Object.values(secrets)) expect(text, name).not.toContain(secret);
    }
  });

  it('a library that keeps originals serves the bytes as sent, and never answers a stripped copy at once', async () => {
    const c = await member();
    const first = await c.upload({ name: 'private.jpg', data: jpeg });
    expect(first.data.chunkUploaded).toBe(first.data.chunks);
    await useUploadConfig(t, config(true));
    try {
      const config = await c.call<UploadConfig>({ action: 'config' });
      expect(config.data.category.image.keepMetadata).toBe(true);
      // The owner holds a stripped copy: not what this library stores now, so all chunks go.
      const kept = await c.upload({ name: 'original.jpg', data: jpeg });
      expect(kept.code, kept.msg).toBe(0);
      expect((await serve(kept.data.path)).equals(jpeg)).toBe(true);
      const blobs = await blobsOf(jpeg);
      expect(blobs.map((b) => [b.stripped, b.size]).sort()).toEqual([
        [0, jpeg.length],
        [1, stripMetadata(jpeg, 'jpg').length],
      ]);
      // Now the original is held: instant.
      const again = await c.init({ name: 'original again.jpg', data: jpeg });
      expect(again.data.chunkUploaded).toBe(again.data.chunks);
      expect((await serve(again.data.path)).equals(jpeg)).toBe(true);
      // Other libraries are not images: the file library never strips.
      const files = new FileClient(t, c.as, 'file');
      const pdfLike = Buffer.concat([Buffer.from('%PDF-1.4\n'), jpeg]);
      const pdf = await files.upload({ name: 'scan.pdf', data: pdfLike });
      expect((await serve(pdf.data.path)).equals(pdfLike)).toBe(true);
    } finally {
      await useUploadConfig(t, config(false));
    }
    // Stripping again: the stripped copy is what an upload now gets at once.
    const back = await c.init({ name: 'back.jpg', data: jpeg });
    expect(back.data.chunkUploaded).toBe(back.data.chunks);
    expect((await serve(back.data.path)).equals(stripMetadata(jpeg, 'jpg'))).toBe(true);
  });

  it('refuses at init an image too big to be read whole, unless its library keeps originals', async () => {
    const big = (keepMetadata: boolean): UploadConfig => {
      const c = config(keepMetadata);
      c.category.image.maxSize = 2 * maxStrippedSize;
      return c;
    };
    const c = await member();
    const init = (name: string) =>
      c.call({ action: 'init', name, size: maxStrippedSize + 1, md5: 'a'.repeat(32) });
    await useUploadConfig(t, big(false));
    try {
      expect((await init('huge.jpg')).data).toMatchObject({
        error: 'files.tooLargeToStrip',
        params: { max: 256 },
        field: 'size',
      });
      // GIF is not rewritten: no limit but the library's.
      expect((await init('huge.gif')).code).toBe(0);
      await useUploadConfig(t, big(true));
      expect((await init('huge.jpg')).code).toBe(0);
    } finally {
      await useUploadConfig(t, config(undefined));
    }
  });

  it('a finish cut short after the stripped bytes were stored completes on the next try', async () => {
    const real = t.app.features.files.storage;
    let crash = true;
    // The process "dies" right after the staging bytes were freed, before the blob is recorded.
    const storage: Storage = Object.create(real) as Storage;
    storage.abort = async (staging) => {
      await real.abort(staging);
      if (crash) {
        crash = false;
        throw new Error('crashed after freeing staging');
      }
    };
    const instances = new Instances(t.db, t.clock.now);
    await instances.start();
    const uploads = new UploadService({
      db: filesDb(t.db),
      storage,
      instances,
      settings: t.app.services.settings,
      clock: t.clock.now,
    });
    try {
      const owner: Owner = { type: 'admin', id: 0 };
      // Bytes of its own (a copyright no other upload has), so no stored blob equals them.
      const png = await pngWithMetadata();
      const mine = pngChunk('tEXt', Buffer.from(`Copyright\0${randomUUID()}`, 'latin1'));
      const data = Buffer.concat([png.subarray(0, 33), mine, png.subarray(33)]);
      const name = 'resumed.png';
      const init = await uploads.init(
        owner,
        'image',
        { action: 'init', name, size: data.length, md5: md5Of(data), type: 'image/png' },
        '',
      );
      const chunks = init.chunks;
      const send = (index: number) =>
        uploads.chunk(
          owner,
          'image',
          {
            name,
            md5: md5Of(data),
            size: String(data.length),
            chunks: String(chunks),
            chunk: String(index),
          },
          Buffer.from(data.subarray(index * testChunkSize, (index + 1) * testChunkSize)),
          '',
        );
      for (let i = 0; i < chunks - 1; i += 1) await send(i);
      await expect(send(chunks - 1)).rejects.toThrow(/crashed after freeing staging/);
      expect(await blobsOf(data)).toHaveLength(0);
      const done = await send(chunks - 1);
      const stripped = stripMetadata(data, 'png');
      expect((await serve(done.path)).equals(stripped)).toBe(true);
      expect(await blobsOf(data)).toMatchObject([
        { size: stripped.length, sentSize: data.length, stripped: 1, refCount: 1 },
      ]);
    } finally {
      await uploads.close();
      await instances.stop();
    }
  });

  it('refuses an image it cannot read, for good, storing nothing', async () => {
    const c = await member();
    // Starts as a JPEG (the sniffer agrees), then a segment runs past the end.
    const broken = Buffer.concat([
      jpeg.subarray(0, 2),
      Buffer.from([0xff, 0xe1, 0xff, 0xf0]),
      Buffer.alloc(3000, 7),
    ]);
    const answer = await c.upload({ name: 'broken.jpg', data: broken });
    expect(answer).toMatchObject({ code: Code.Failure });
    expect(answer.msg).toBe('文件内容与扩展名不符：图片已损坏');
    expect(answer.data).toMatchObject({
      error: 'files.contentMismatch',
      detail: expect.stringContaining('runs past the end'),
    });
    expect(await blobsOf(broken)).toHaveLength(0);
    const sessions = await db()
      .selectFrom('uploadSessions')
      .select('id')
      .where('md5', '=', md5Of(broken))
      .execute();
    expect(sessions).toHaveLength(0);
    // The same client can send a good image right after.
    const good = await c.upload({ name: 'good.jpg', data: jpeg });
    expect(good.code, good.msg).toBe(0);
  });
});
