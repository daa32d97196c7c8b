import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Code } from '@atrium/shared';
import {
  defaultUploadConfig,
  type ChunkResponse,
  type UploadConfig,
} from '@atrium/shared/contract/files';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../../testing/db';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { Instances } from '../../../instances/instances';
import { filesDb } from '../library.tables';
import { UploadService } from './upload.service';
import {
  FileClient,
  md5Of,
  testChunkSize,
  textFile,
  useUploadConfig,
  type UploadFile,
} from '../library.testing';

async function pngFile(name: string, width = 300, height = 200): Promise<UploadFile> {
  const data = await sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } },
  })
    .composite([{ input: randomBytes(width * height * 3), raw: { width, height, channels: 3 } }])
    .png({ compressionLevel: 0 })
    .toBuffer();
  return { name, data };
}

describe.each(testDbKinds)('chunked upload (%s)', (kind) => {
  let t: TestApp;
  let member: FileClient;
  let files: FileClient;

  const storageDir = () => join(t.dataDir, 'storage');
  const db = () => filesDb(t.db);
  const sessionCount = async () =>
    (await db().selectFrom('uploadSessions').select('id').execute()).length;
  const chunkRows = async () =>
    (await db().selectFrom('uploadChunks').selectAll().execute()).length;
  const stagingBytes = async () => {
    const dir = join(storageDir(), 'staging');
    const names = await readdir(dir).catch(() => []);
    let total = 0;
    for (const name of names) total += (await stat(join(dir, name))).size;
    return total;
  };

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  beforeEach(async () => {
    const { token } = await t.loginMember();
    member = new FileClient(t, { area: 'member', token }, 'image');
    files = new FileClient(t, { area: 'member', token }, 'file');
  });

  it('answers the upload configuration', async () => {
    const answer = await member.call<UploadConfig>({ action: 'config' });
    expect(answer.code).toBe(0);
    expect(answer.data.chunkSize).toBe(testChunkSize);
    expect(answer.data.category.image).toEqual(defaultUploadConfig.category.image);
    expect(answer.data.category.video.extensions).toEqual(['mp4', 'webm', 'mov']);
  });

  it('uploads a file in chunks, in any order, and serves the exact bytes', async () => {
    const file = await pngFile('photo.png');
    const chunks = Math.ceil(file.data.length / testChunkSize);
    expect(chunks).toBeGreaterThan(3);

    const init = await member.init(file);
    expect(init).toMatchObject({ code: 0, data: { chunkUploaded: 0, chunks } });

    // A chunk beyond the gap is stored but does not move chunkUploaded.
    const early = await member.sendChunk(file, 2);
    expect(early.json).toMatchObject({ code: 0, data: { chunkUploaded: 0 } });
    expect((await member.sendChunk(file, 0)).json.data.chunkUploaded).toBe(1);
    expect((await member.sendChunk(file, 1)).json.data.chunkUploaded).toBe(3);

    let last: ChunkResponse | undefined;
    for (let i = 3; i < chunks; i += 1) {
      const { json } = await member.sendChunk(file, i);
      expect(json.code, json.msg).toBe(0);
      last = json.data;
    }
    expect(last).toMatchObject({ data: { filename: 'photo.png', size: file.data.length } });
    expect(last?.path).toMatch(/^\/data\/image\/[0-9a-f]{24}\/photo\.png$/);
    expect(last?.fullPath).toBe(`http://localhost:80${last?.path}`);

    const served = await t.app.inject({ method: 'GET', url: last?.path ?? '' });
    expect(served.statusCode).toBe(200);
    expect(md5Of(served.rawPayload)).toBe(md5Of(file.data));
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-disposition']).toBe('inline');
    expect(await sessionCount()).toBe(0);
    expect(await stagingBytes()).toBe(0);
  });

  it('resumes: init answers the chunks already held and only the rest are sent', async () => {
    const file = { name: 'notes.txt', data: textFile(testChunkSize * 5 + 77, 'resume') };
    expect((await files.init(file)).data.chunkUploaded).toBe(0);
    for (const i of [0, 1, 2]) expect((await files.sendChunk(file, i)).json.code).toBe(0);

    const again = await files.init(file);
    expect(again).toMatchObject({ code: 0, data: { chunkUploaded: 3, chunks: 6 } });
    // A chunk sent twice changes nothing.
    expect((await files.sendChunk(file, 2)).json).toMatchObject({
      code: 0,
      data: { chunkUploaded: 3 },
    });

    let done: ChunkResponse | undefined;
    for (let i = 3; i < 6; i += 1) done = (await files.sendChunk(file, i)).json.data;
    const served = await t.app.inject({ method: 'GET', url: done?.path ?? '' });
    expect(served.rawPayload.equals(file.data)).toBe(true);
  });

  it('init lists the chunks still missing, gaps left by chunks sent in parallel included', async () => {
    const file = { name: 'gaps.txt', data: textFile(testChunkSize * 6 + 5, 'gaps') };
    expect((await files.init(file)).data).toMatchObject({ chunkUploaded: 0, missing: [[0, 7]] });
    for (const i of [0, 2, 3, 5]) expect((await files.sendChunk(file, i)).json.code).toBe(0);
    // SPEC's meaning of chunkUploaded holds (held from 0 without a gap); the gaps are listed.
    expect((await files.init(file)).data).toMatchObject({
      chunkUploaded: 1,
      chunks: 7,
      missing: [
        [1, 2],
        [4, 5],
        [6, 7],
      ],
    });
    for (const i of [1, 4]) expect((await files.sendChunk(file, i)).json.code).toBe(0);
    const last = await files.sendChunk(file, 6);
    expect(last.json.code, last.json.msg).toBe(0);
    const served = await t.app.inject({ method: 'GET', url: last.json.data.path ?? '' });
    expect(served.rawPayload.equals(file.data)).toBe(true);
  });

  it('answers an identical file at once ("instant upload") without a chunk', async () => {
    const file = { name: 'same.txt', data: textFile(3000, 'instant') };
    const first = await files.uploadAndSave(file);
    const again = await files.init({ ...file, name: 'renamed copy.txt' });
    expect(again).toMatchObject({
      code: 0,
      data: {
        chunkUploaded: 3,
        chunks: 3,
        data: { filename: 'renamed copy.txt', size: 3000 },
      },
    });
    // A new upload of its own, at an address of its own ending with the new name.
    const path = again.data.path ?? '';
    expect(path).toMatch(/^\/data\/file\/[0-9a-f]{24}\/renamed-copy\.txt$/);
    expect(path).not.toBe(first.path);
    const saved = await files.call({
      action: 'save',
      path,
      name: 'renamed copy.txt',
      size: 3000,
      categoryId: 0,
    });
    expect(saved.code).toBe(0);
    const blobs = await db()
      .selectFrom('fileBlobs')
      .selectAll()
      .where('md5', '=', md5Of(file.data))
      .execute();
    expect(blobs).toHaveLength(1);
    expect(blobs[0]?.refCount).toBe(2);
  });

  describe('refuses bad chunks with a clear message and stores nothing', () => {
    const file = { name: 'bounds.txt', data: textFile(testChunkSize * 3 + 10, 'bounds') };

    beforeEach(async () => {
      expect((await files.init(file)).code).toBe(0);
    });

    const digitsOnly = 'Chunk number must be a whole number written with digits only';
    it.each([
      ['0/../x', digitsOnly],
      ['-1', digitsOnly],
      ['1.5', digitsOnly],
      ['1e1', digitsOnly],
      ['', digitsOnly],
      ['4', 'The chunk number must be a whole number from 0 to 3, got 4'],
      ['5', 'The chunk number must be a whole number from 0 to 3, got 5'],
    ])('chunk %j', async (chunk, message) => {
      const rowsBefore = await chunkRows();
      const bytesBefore = await stagingBytes();
      const { res, json } = await files.in('en').sendChunk(file, 0, { fields: { chunk } });
      expect(res.statusCode).toBe(200);
      expect(json.code).toBe(Code.Failure);
      expect(json.msg).toBe(message);
      expect(json.data).toMatchObject({ field: 'chunk' });
      expect(await chunkRows()).toBe(rowsBefore);
      expect(await stagingBytes()).toBe(bytesBefore);
    });

    it.each([
      [
        'one byte short',
        (b: Buffer) => b.subarray(0, b.length - 1),
        /^Chunk 1: expected exactly 1024 bytes, received 1023$/,
      ],
      [
        'one byte long',
        (b: Buffer) => Buffer.concat([b, Buffer.from('x')]),
        /^Chunk 1: expected exactly 1024 bytes, received 1025$/,
      ],
      ['far too long', (b: Buffer) => Buffer.concat([b, b, b]), /^A chunk is at most 1024 bytes$/],
    ])('a body %s', async (_name, change, message) => {
      const rowsBefore = await chunkRows();
      const bytesBefore = await stagingBytes();
      const body = change(file.data.subarray(testChunkSize, testChunkSize * 2));
      const { json } = await files.in('en').sendChunk(file, 1, { body });
      expect(json).toMatchObject({ code: Code.Failure, msg: expect.stringMatching(message) });
      expect(await chunkRows()).toBe(rowsBefore);
      expect(await stagingBytes()).toBe(bytesBefore);
    });

    it('the last chunk must be exactly the remainder', async () => {
      const { json } = await files.sendChunk(file, 3, { body: Buffer.alloc(testChunkSize) });
      expect(json).toMatchObject({
        msg: '分片 3 应恰好为 10 字节，收到 1024 字节',
        data: { error: 'files.chunkLength', params: { index: 3, expected: 10, received: 1024 } },
      });
    });

    it('a chunk count that does not match the file', async () => {
      const { json } = await files.in('en').sendChunk(file, 0, { fields: { chunks: '5' } });
      expect(json).toMatchObject({
        msg: 'This file has 4 chunks, not 5',
        data: { error: 'files.chunkCountMismatch', field: 'chunks' },
      });
    });

    it('a chunk of a file never initialised', async () => {
      const other = { name: 'other.txt', data: textFile(2000, 'other') };
      const { json } = await files.sendChunk(other, 0);
      expect(json.code).toBe(Code.Failure);
      expect(json.msg).toContain('ShouldRetryUpload');
    });

    it('a form without the file part', async () => {
      const { json } = await files.sendChunk(file, 0, { body: Buffer.alloc(0) });
      expect(json.code).toBe(Code.Failure);
    });
  });

  it('a wrong md5 fails the last chunk with ShouldRetryUpload and starts over', async () => {
    const file = { name: 'wrong.txt', data: textFile(2500, 'wrong md5'), md5: 'f'.repeat(32) };
    const answer = await files.upload(file);
    expect(answer.code).toBe(Code.Failure);
    expect(answer.msg).toBe('文件的 MD5 与开始上传时声明的不一致 (ShouldRetryUpload)');
    expect((await files.init(file)).data.chunkUploaded).toBe(0);
    expect(await stagingBytes()).toBe(0);
  });

  it('content that does not match its extension is refused on the first chunk, for good', async () => {
    // Three chunks of text named .png: the first chunk's answer refuses it, without the restart
    // marker (sending it again cannot change it), and nothing of it is kept.
    const fake = { name: 'fake.png', data: textFile(testChunkSize * 3 - 10, 'not an image') };
    const before = { sessions: await sessionCount(), chunks: await chunkRows() };
    const staged = await stagingBytes();
    await member.init(fake);
    const first = await member.in('en').sendChunk(fake, 0);
    expect(first.json).toMatchObject({
      code: Code.Failure,
      msg: 'The file does not match its extension: the content is not a .png file',
      data: {
        error: 'files.contentMismatch',
        params: { problem: { key: 'files.contentNotType' } },
      },
    });
    expect({ sessions: await sessionCount(), chunks: await chunkRows() }).toEqual(before);
    expect(await stagingBytes()).toBe(staged);
    // The client that sends on anyway gets no session, and init starts again from chunk 0.
    expect((await member.sendChunk(fake, 1)).json.msg).toContain('ShouldRetryUpload');
    expect((await member.init(fake)).data.chunkUploaded).toBe(0);

    const binaryText = { name: 'binary.txt', data: randomBytes(testChunkSize * 2 + 7) };
    await files.init(binaryText);
    expect((await files.sendChunk(binaryText, 0)).json.msg).toBe(
      '文件内容与扩展名不符：内容不是 UTF-8 文本，而 .txt 文件必须是',
    );

    const notJson = { name: 'list.json', data: Buffer.from(`<html>${' '.repeat(2500)}</html>`) };
    await files.init(notJson);
    expect((await files.in('en').sendChunk(notJson, 0)).json.msg).toBe(
      'The file does not match its extension: the content is not valid JSON',
    );
  });

  it('content the first chunk cannot judge is refused at the end, for good', async () => {
    // Valid text in the first chunk, bytes that are not UTF-8 in the last.
    const late = {
      name: 'late.txt',
      data: Buffer.concat([textFile(testChunkSize * 2, 'fine'), Buffer.from([0xff, 0xfe, 0x00])]),
    };
    expect((await files.upload(late)).msg).toBe(
      '文件内容与扩展名不符：内容不是 UTF-8 文本，而 .txt 文件必须是',
    );
    const badJson = { name: 'broken.json', data: Buffer.from(`{"a": [1, 2${' '.repeat(2500)}`) };
    const answer = await files.in('en').upload(badJson);
    expect(answer).toMatchObject({
      msg: 'The file does not match its extension: the content is not valid JSON',
      data: { error: 'files.contentMismatch' },
    });
    // The session went with the refusal: init starts the file over.
    expect((await files.init(late)).data.chunkUploaded).toBe(0);
    // A PNG whose first chunk says PNG is stored as ever.
    const photo = await pngFile('real.png', 60, 40);
    expect((await member.upload(photo)).code).toBe(0);
  });

  describe('init refuses', () => {
    it.each([
      [
        'a forbidden extension',
        { name: 'run.exe', size: 10 },
        'files.typeNotAllowed',
        '文件类型不合法（只能上传jpg,jpeg,png,gif,webp文件）',
        'Illegal file type (only jpg,jpeg,png,gif,webp files may be uploaded)',
      ],
      [
        'a size over maxSize',
        { name: 'big.png', size: 20 * 1024 * 1024 + 1 },
        'files.sizeNotAllowed',
        '文件大小不合法',
        'Illegal file size',
      ],
      [
        'a 201-byte name',
        { name: `${'a'.repeat(197)}.png`, size: 10 },
        'files.nameTooLong',
        '文件名最多 200 字节（UTF-8），这个文件名有 201 字节',
        'The file name takes at most 200 bytes (UTF-8), this one has 201',
      ],
      [
        'a name with a control character',
        { name: 'a\u0001b.png', size: 10 },
        'files.nameControlCharacters',
        '文件名不能包含控制字符（如 NUL）',
        'The file name must not contain control characters such as NUL',
      ],
      [
        'a name without extension',
        { name: 'README', size: 10 },
        'files.nameNoExtension',
        '文件名需要扩展名，例如 .jpg',
        'The file name needs an extension such as .jpg',
      ],
      [
        'a bad md5',
        { name: 'a.png', size: 10, md5: 'xyz' },
        'files.md5Format',
        'MD5必须是 32 位十六进制数字',
        'MD5 must be 32 hex digits',
      ],
      [
        'an empty file',
        { name: 'a.png', size: 0 },
        'files.emptyFile',
        '不能上传空文件',
        'An empty file cannot be uploaded',
      ],
    ])('%s', async (_name, fields, key, zh, en) => {
      const before = await sessionCount();
      const body = { action: 'init', md5: 'a'.repeat(32), ...fields };
      const answer = await member.call(body);
      expect(answer).toMatchObject({ code: Code.Failure, msg: zh, data: { error: key } });
      expect(await member.in('en').call(body)).toMatchObject({
        code: Code.Failure,
        msg: en,
        data: { error: key },
      });
      expect(await sessionCount()).toBe(before);
    });

    it.each([
      [
        'zh-CN',
        '文件类型不合法（只能上传jpg,jpeg,png,gif,webp文件）',
        '文件大小不合法',
        '这个文件没有进行中的上传，请重新开始上传 (ShouldRetryUpload)',
      ],
      [
        'en',
        'Illegal file type (only jpg,jpeg,png,gif,webp files may be uploaded)',
        'Illegal file size',
        'No upload in progress for this file: start it with init (ShouldRetryUpload)',
      ],
    ] as const)(
      "a refused type, a refused size and a retry in the request's language (%s)",
      async (lang, typeText, sizeText, retryText) => {
        const asking = member.in(lang);
        const md5 = 'a'.repeat(32);
        expect(await asking.call({ action: 'init', name: 'run.exe', size: 10, md5 })).toEqual({
          code: Code.Failure,
          msg: typeText,
          data: {
            error: 'files.typeNotAllowed',
            params: { extensions: 'jpg,jpeg,png,gif,webp' },
            field: 'name',
          },
        });
        expect(
          await asking.call({ action: 'init', name: 'big.png', size: 20 * 1024 * 1024 + 1, md5 }),
        ).toEqual({
          code: Code.Failure,
          msg: sizeText,
          data: { error: 'files.sizeNotAllowed', params: {}, field: 'size' },
        });
        // A chunk sent without init (WebUploader's own chunks) is refused the same way.
        const exe = { name: 'run.exe', data: Buffer.from('MZ not really a program') };
        expect((await asking.sendChunk(exe, 0)).json).toMatchObject({
          code: Code.Failure,
          msg: typeText,
          data: { error: 'files.typeNotAllowed' },
        });
        // A refusal after which the uploader starts over keeps the ASCII marker it looks for.
        const never = { name: 'never.png', data: randomBytes(100) };
        const retry = (await asking.sendChunk(never, 0)).json;
        expect(retry).toMatchObject({
          code: Code.Failure,
          msg: retryText,
          data: {
            error: 'http.shouldRetryUpload',
            params: { reason: { key: 'files.noUploadInProgress' } },
          },
        });
        expect(retry.msg.endsWith(' (ShouldRetryUpload)')).toBe(true);
      },
    );

    it('a name with NUL, naming the field', async () => {
      const before = await sessionCount();
      const answer = await member.call({
        action: 'init',
        md5: 'a'.repeat(32),
        name: 'a\u0000b.png',
        size: 10,
      });
      expect(answer).toMatchObject({ code: Code.Failure, data: { field: 'name' } });
      expect(await sessionCount()).toBe(before);
    });

    it('a file needing more chunks than an integer column counts', async () => {
      const huge: UploadConfig = {
        chunkSize: 1,
        parallelChunks: 3,
        category: {
          ...defaultUploadConfig.category,
          video: { extensions: ['mp4'], maxSize: Number.MAX_SAFE_INTEGER },
        },
      };
      await useUploadConfig(t, huge);
      try {
        const video = new FileClient(t, member.as, 'video');
        const init = (size: number) =>
          video.call({ action: 'init', name: 'long.mp4', size, md5: 'c'.repeat(32) });
        const before = await sessionCount();
        expect(await init(2_147_483_648)).toEqual({
          code: Code.Failure,
          msg: '文件太大，无法按每片 1 字节分片上传',
          data: { error: 'files.tooManyChunks', params: { chunkSize: 1 }, field: 'size' },
        });
        expect(await sessionCount()).toBe(before);
        expect(await init(2_147_483_647)).toMatchObject({
          code: 0,
          data: { chunkUploaded: 0, chunks: 2_147_483_647 },
        });
      } finally {
        await useUploadConfig(t);
      }
    });

    it('accepts a 200-byte name of multi-byte characters', async () => {
      const name = `${'文'.repeat(65)}a.png`;
      expect(Buffer.byteLength(name)).toBe(200);
      expect(
        (await member.call({ action: 'init', name, size: 10, md5: 'b'.repeat(32) })).code,
      ).toBe(0);
    });
  });

  it('keeps a name with ../ as a display name only', async () => {
    const file = { name: '../../etc/passwd.txt', data: textFile(1500, 'traversal') };
    const saved = await files.uploadAndSave(file);
    expect(saved).toMatchObject({
      name: '../../etc/passwd.txt',
      filename: '../../etc/passwd.txt',
    });
    expect(saved.path).toMatch(/^\/data\/file\/[0-9a-f]{24}\/etc-passwd\.txt$/);
    const everything = await readdir(storageDir(), { recursive: true });
    expect(everything.some((p) => p.includes('passwd') || p.includes('..'))).toBe(false);
  });

  it('the sweeper frees abandoned sessions and unsaved uploads after 24 h, not saved files', async () => {
    const abandoned = { name: 'abandoned.txt', data: textFile(2500, 'abandoned') };
    await files.init(abandoned);
    await files.sendChunk(abandoned, 0);
    const unsaved = await files.upload({ name: 'unsaved.txt', data: textFile(1200, 'unsaved') });
    const kept = await files.uploadAndSave({ name: 'kept.txt', data: textFile(1300, 'kept') });
    expect(await stagingBytes()).toBeGreaterThan(0);

    t.clock.advance(23 * 3_600_000);
    const early = await sweep(t);
    expect(early).toEqual({ sessions: 0, uploads: 0, blobs: 0, orphans: 0 });

    t.clock.advance(2 * 3_600_000);
    const late = await sweep(t);
    expect(late.sessions).toBeGreaterThanOrEqual(1);
    expect(late.uploads).toBeGreaterThanOrEqual(1);
    expect(await stagingBytes()).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: unsaved.data.path ?? '' })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: kept.path })).statusCode).toBe(200);
    // The member's sign-in has expired too by now.
    const again = new FileClient(
      t,
      { area: 'member', token: (await t.loginMember()).token },
      'file',
    );
    expect((await again.init(abandoned)).data.chunkUploaded).toBe(0);
  });
});

describe.each(testDbKinds)('one writer per chunk, claims tied to live instances (%s)', (kind) => {
  let t: TestApp;
  // Short beats so a refusal (after waiting out a live holder) takes a fraction of a second.
  const timing = { heartbeatMs: 50, deadAfterMs: 200 };
  const waited = timing.deadAfterMs + 2 * timing.heartbeatMs;
  beforeAll(async () => {
    t = await createTestApp({ db: kind, deps: { instanceTiming: timing } });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  /**
   * Another instance on the same database and storage. Its heartbeat reads a clock of its own
   * that `crash` stops, while the app's clock runs on: to the app it then looks like a process
   * killed with -9 (beats stopped, row left behind).
   */
  async function otherInstance() {
    let crashedAt: number | undefined;
    const instances = new Instances(t.db, () => crashedAt ?? t.clock.now(), timing);
    await instances.start();
    const uploads = new UploadService({
      db: filesDb(t.db),
      storage: t.app.features.files.storage,
      instances,
      settings: t.app.services.settings,
      clock: () => t.clock.now(),
    });
    return {
      instances,
      uploads,
      crash: () => {
        crashedAt = t.clock.now();
      },
      async close() {
        await uploads.close();
        await instances.stop();
      },
    };
  }

  const setUp = async (name: string) => {
    const { token } = await t.loginAdmin();
    const admin = new FileClient(t, { area: 'admin', token }, 'file');
    const file = { name, data: textFile(testChunkSize * 2 + 5, name) };
    expect((await admin.init(file)).code).toBe(Code.Success);
    const fields = (chunk: number) => ({
      name: file.name,
      md5: md5Of(file.data),
      size: String(file.data.length),
      chunks: '3',
      chunk: String(chunk),
    });
    const bytes = (chunk: number) =>
      file.data.subarray(chunk * testChunkSize, (chunk + 1) * testChunkSize);
    return { admin, file, fields, bytes };
  };
  const owner = { type: 'admin' as const, id: 0 };

  it('refuses a second send of a chunk while another request writes it, then takes it', async () => {
    const { admin, file, fields, bytes } = await setUp('race.txt');
    const uploads = t.app.features.files.uploads;

    // A request streaming chunk 0 into place holds it until it is recorded or dropped.
    const sink = await uploads.openChunkSink(owner, 'file', fields(0));
    expect(sink?.length).toBe(testChunkSize);
    expect(await uploads.openChunkSink(owner, 'file', fields(0))).toBeUndefined();
    const other = Buffer.alloc(testChunkSize, 0x41);
    // A second send waits for the holder to finish or die, then is refused.
    const started = performance.now();
    await expect(uploads.chunk(owner, 'file', fields(0), other, '')).rejects.toThrow(
      'files.chunkBusy',
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(waited);
    // Also on another instance on the same database and storage.
    const b = await otherInstance();
    await expect(b.uploads.chunk(owner, 'file', fields(0), other, '')).rejects.toThrow(
      'files.chunkBusy',
    );
    expect(await b.uploads.openChunkSink(owner, 'file', fields(0))).toBeUndefined();
    await b.close();
    expect((await admin.sendChunk(file, 0, { body: other })).json.msg).toBe(
      '这个分片正由另一个请求接收，请稍后重新发送',
    );

    // Its bytes in place and kept, the first request records the chunk and lets go of it.
    await sink?.write(bytes(0), 0);
    await sink?.close(true);
    expect(
      (await uploads.chunk(owner, 'file', fields(0), bytes(0), '', { written: sink }))
        .chunkUploaded,
    ).toBe(1);
    // Held now: another send of it is accepted and changes nothing.
    expect((await uploads.chunk(owner, 'file', fields(0), other, '')).chunkUploaded).toBe(1);

    // A second send that arrives while the holder is still writing is taken once it recorded.
    const slow = await uploads.openChunkSink(owner, 'file', fields(1));
    const resent = uploads.chunk(owner, 'file', fields(1), bytes(1), '');
    await slow?.write(bytes(1), 0);
    await slow?.close(true);
    await uploads.chunk(owner, 'file', fields(1), bytes(1), '', { written: slow });
    expect((await resent).chunkUploaded).toBe(2);

    // A sink dropped without being kept lets go at once.
    const dropped = await uploads.openChunkSink(owner, 'file', fields(2));
    expect(dropped).toBeDefined();
    await dropped?.close(false);
    const last = await admin.sendChunk(file, 2);
    expect(last.json.code, last.json.msg).toBe(Code.Success);
    const served = await t.app.inject({ method: 'GET', url: last.json.data.path ?? '' });
    expect(served.rawPayload.equals(file.data)).toBe(true);
  });

  it('takes over the claim of a crashed instance as soon as its heartbeat is stale, and of a stopped one at once', async () => {
    const { admin, file, fields, bytes } = await setUp('crashed.txt');
    const b = await otherInstance();
    const held = await b.uploads.openChunkSink(owner, 'file', fields(0));
    expect(held).toBeDefined();
    expect((await admin.in('en').sendChunk(file, 0)).json.msg).toBe(
      'This chunk is being received by another request: send it again in a moment',
    );

    b.crash();
    t.clock.advance(timing.deadAfterMs - 1);
    await t.app.services.instances.beat();
    // Not stale yet.
    expect((await admin.in('en').sendChunk(file, 0)).json.msg).toBe(
      'This chunk is being received by another request: send it again in a moment',
    );
    t.clock.advance(2);
    await t.app.services.instances.beat();
    const uploads = t.app.features.files.uploads;
    const takeover = await uploads.openChunkSink(owner, 'file', fields(0));
    expect(takeover).toBeDefined();
    // Had the crashed instance lived on (a stall, not a kill), it could not record the chunk now.
    await held?.write(bytes(0), 0);
    await held?.close(true);
    await expect(
      b.uploads.chunk(owner, 'file', fields(0), bytes(0), '', { written: held }),
    ).rejects.toThrow('files.chunkTakenOver');
    await takeover?.write(bytes(0), 0);
    await takeover?.close(true);
    const taken = await uploads.chunk(owner, 'file', fields(0), bytes(0), '', {
      written: takeover,
    });
    expect(taken.chunkUploaded).toBe(1);
    const claims = await filesDb(t.db).selectFrom('uploadChunkClaims').selectAll().execute();
    expect(claims).toEqual([]);

    const c = await otherInstance();
    const stopping = await c.uploads.openChunkSink(owner, 'file', fields(1));
    expect(stopping).toBeDefined();
    await c.instances.stop();
    // A stopped instance records nothing: what it held may be someone else's already.
    await expect(c.uploads.chunk(owner, 'file', fields(1), bytes(1), '')).rejects.toThrow(
      'files.lostDatabase',
    );
    // Its claim is free at once.
    expect((await admin.sendChunk(file, 1)).json).toMatchObject({
      code: 0,
      data: { chunkUploaded: 2 },
    });
    await stopping?.close(false);
    await c.uploads.close();
    await b.close();
  });

  it('takes over the finish lease of a crashed instance', async () => {
    const { admin, file } = await setUp('finish.txt');
    for (const chunk of [0, 1]) expect((await admin.sendChunk(file, chunk)).json.code).toBe(0);
    const b = await otherInstance();
    const session = await filesDb(t.db)
      .selectFrom('uploadSessions')
      .select('id')
      .where('name', '=', file.name)
      .executeTakeFirstOrThrow();
    const now = t.clock.now();
    expect(
      await b.uploads.repo.sessions.claimFinish(
        session.id,
        b.instances.id,
        now,
        b.instances.aliveSince(),
        0,
      ),
    ).toBe(true);
    // Every chunk held and a live instance finishing: the last chunk waits for it, then is refused.
    expect((await admin.sendChunk(file, 2)).json.data).toMatchObject({
      error: 'files.beingFinished',
    });
    expect((await admin.init(file)).data).toMatchObject({ chunkUploaded: 2 });

    b.crash();
    t.clock.advance(timing.deadAfterMs + 1);
    await t.app.services.instances.beat();
    const last = await admin.sendChunk(file, 2);
    expect(last.json, last.json.msg).toMatchObject({
      code: 0,
      data: { data: { size: file.data.length } },
    });
    const served = await t.app.inject({ method: 'GET', url: last.json.data.path ?? '' });
    expect(served.rawPayload.equals(file.data)).toBe(true);
    await b.close();
  });
});

async function sweep(t: TestApp) {
  const feature = t.app.features.files;
  return feature.uploads.sweep(t.clock.now());
}
