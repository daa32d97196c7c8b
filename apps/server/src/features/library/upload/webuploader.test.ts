import { Code, TokenKey, type Envelope } from '@atrium/shared';
import type { ChunkResponse, InitResponse } from '@atrium/shared/contract/files';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '../../../testing/db';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import {
  managerUrl,
  md5Of,
  multipartBody,
  testChunkSize,
  textFile,
  useUploadConfig,
  type Area,
  type UploadFile,
} from '../library.testing';
import { filesDb } from '../library.tables';

const MIN = 60_000;

/**
 * The calls WebUploader 0.1.8 makes as ModStart's upload button drives it: `init` as JSON and
 * the chunks as multipart, each with the headers the uploader was created with (the token
 * alone: no XSRF echo), `chunks`/`chunk` only for a file of more than one chunk, `md5` added
 * before each send, and a chunk sent when `chunk + 1 >= chunkUploaded`.
 */
class WebUploader {
  constructor(
    private readonly t: TestApp,
    private readonly area: Area,
    /** Fixed when the uploader is created, like WebUploader's `headers` option. */
    private readonly token: string,
    private readonly library = 'file',
  ) {}

  get headers() {
    return { [this.area === 'admin' ? TokenKey.admin : TokenKey.member]: this.token };
  }

  async init(file: UploadFile) {
    const res = await this.t.app.inject({
      method: 'POST',
      url: managerUrl(this.area, this.library),
      headers: { ...this.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({
        action: 'init',
        name: file.name,
        type: 'text/plain',
        lastModifiedDate: new Date(0).toString(),
        size: file.data.length,
        md5: md5Of(file.data),
      }),
    });
    return { res, json: res.json<Envelope<InitResponse>>() };
  }

  /** The multipart body WebUploader builds for chunk `index`; `bytes` replaces the chunk's. */
  form(file: UploadFile, index: number, bytes?: Buffer) {
    const chunks = Math.ceil(file.data.length / testChunkSize);
    const fields: Record<string, string> = {
      id: 'WU_FILE_0',
      name: file.name,
      type: 'text/plain',
      lastModifiedDate: new Date(0).toString(),
      size: String(file.data.length),
      ...(chunks > 1 ? { chunks: String(chunks), chunk: String(index) } : {}),
      md5: md5Of(file.data),
    };
    return multipartBody(
      fields,
      bytes ?? file.data.subarray(index * testChunkSize, (index + 1) * testChunkSize),
    );
  }

  async chunk(
    file: UploadFile,
    index: number,
    bytes?: Buffer,
  ): Promise<{ res: LightMyRequestResponse; json: Envelope<ChunkResponse> }> {
    const { payload, contentType } = this.form(file, index, bytes);
    const res = await this.t.app.inject({
      method: 'POST',
      url: managerUrl(this.area, this.library),
      headers: { ...this.headers, 'content-type': contentType },
      payload,
    });
    return { res, json: res.json<Envelope<ChunkResponse>>() };
  }

  /** init, then every chunk ModStart's skip rule lets through; what was sent and the last answer. */
  async upload(file: UploadFile) {
    const init = await this.init(file);
    expect(init.json.code, init.json.msg).toBe(0);
    const chunks = Math.ceil(file.data.length / testChunkSize);
    const sent: number[] = [];
    let last: Envelope<ChunkResponse> | undefined;
    for (let index = 0; index < chunks; index += 1) {
      if (index + 1 < init.json.data.chunkUploaded) continue;
      sent.push(index);
      last = (await this.chunk(file, index)).json;
      expect(last.code, last.msg).toBe(0);
    }
    return { init: init.json.data, sent, last };
  }
}

/** What ModStart's uploadSuccess reads from the last answer. */
const finished = (answer: Envelope<ChunkResponse> | undefined) => ({
  code: answer?.code,
  filename: answer?.data.data?.filename,
  size: answer?.data.data?.size,
  path: answer?.data.path,
  fullPath: answer?.data.fullPath,
});

describe.each(testDbKinds)('WebUploader as ModStart drives it (%s)', (kind) => {
  let t: TestApp;

  const uploadRows = async () =>
    (await filesDb(t.db).selectFrom('uploads').select('id').execute()).length;

  /** The page's own call, which rotates a token older than 15 minutes. */
  const pageCall = async (token: string) => {
    const { res, json } = await t.post<{ user: { id: number } }>(
      '/admin/api/app/config',
      {},
      { area: 'admin', token },
    );
    return { id: json.data.user.id, token: res.headers[TokenKey.admin] };
  };

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    await useUploadConfig(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('uploads a one-chunk file sent without chunks and chunk fields, with no XSRF echo', async () => {
    const { token } = await t.loginMember();
    const uploader = new WebUploader(t, 'member', token);
    const file = { name: 'one.txt', data: textFile(700, 'one chunk') };
    expect(uploader.form(file, 0).payload.includes('name="chunk"')).toBe(false);

    const { init, sent, last } = await uploader.upload(file);
    expect(init).toMatchObject({ chunkUploaded: 0, chunks: 1 });
    expect(sent).toEqual([0]);
    expect(last?.data.data).toEqual({ filename: 'one.txt', size: 700 });
    const served = await t.app.inject({ method: 'GET', url: last?.data.path ?? '' });
    expect(served.rawPayload.equals(file.data)).toBe(true);
  });

  it('still wants the XSRF echo on the library calls other than init and chunks', async () => {
    const { token } = await t.loginMember();
    const res = await t.app.inject({
      method: 'POST',
      url: managerUrl('member', 'file'),
      headers: { [TokenKey.member]: token, 'content-type': 'application/json' },
      payload: JSON.stringify({ action: 'list' }),
    });
    expect(res.json()).toMatchObject({
      code: Code.Failure,
      msg: expect.stringMatching(/XSRF/),
      data: { error: 'http.xsrfMismatch' },
    });
    const echoed = await t.post(
      managerUrl('member', 'file'),
      { action: 'list' },
      {
        area: 'member',
        token,
      },
    );
    expect(echoed.json.code).toBe(0);
  });

  it('answers the re-sent chunks of an instant upload with the finished result, every time', async () => {
    const { token } = await t.loginMember();
    const uploader = new WebUploader(t, 'member', token);
    const file = { name: 'twice.txt', data: textFile(testChunkSize * 3 + 100, 'instant') };
    const first = await uploader.upload(file);
    expect(first.sent).toEqual([0, 1, 2, 3]);

    const again = await uploader.upload(file);
    expect(again.init).toMatchObject({ chunkUploaded: 4, chunks: 4 });
    // The instant upload is an upload of its own, at an address of its own.
    const path = again.init.path ?? '';
    expect(path).toMatch(/^\/data\/file\/[0-9a-f]{24}\/twice\.txt$/);
    expect(path).not.toBe(first.last?.data.path);
    // The skip rule lets the last chunk through; its answer ends the upload.
    expect(again.sent).toEqual([3]);
    expect(finished(again.last)).toEqual({
      code: 0,
      filename: 'twice.txt',
      size: file.data.length,
      path,
      fullPath: `http://localhost:80${path}`,
    });

    const rows = await uploadRows();
    for (const index of [0, 1, 2, 3, 3]) {
      expect(finished((await uploader.chunk(file, index)).json), `chunk ${index}`).toEqual(
        finished(again.last),
      );
    }
    expect(await uploadRows()).toBe(rows);
  });

  it('answers a re-sent chunk of an upload whose last answer was lost with that answer', async () => {
    const { token } = await t.loginMember();
    const uploader = new WebUploader(t, 'member', token);
    const file = { name: 'lost.txt', data: textFile(testChunkSize * 2 + 5, 'lost answer') };
    const { last: lost } = await uploader.upload(file);
    expect(lost?.data.path).toMatch(/^\/data\/file\//);

    const rows = await uploadRows();
    for (const index of [2, 2, 0]) {
      expect(finished((await uploader.chunk(file, index)).json), `chunk ${index}`).toEqual(
        finished(lost),
      );
    }
    expect(await uploadRows()).toBe(rows);
    const saved = await t.post(
      managerUrl('member', 'file'),
      { action: 'save', path: lost?.data.path, name: file.name, size: file.data.length },
      { area: 'member', token },
    );
    expect(saved.json.code).toBe(0);
  });

  it("answers no finished result for another owner's file, nor for a chunk of the wrong size", async () => {
    const owner = new WebUploader(t, 'member', (await t.loginMember()).token);
    const other = new WebUploader(t, 'member', (await t.loginMember()).token);
    const file = { name: 'mine.txt', data: textFile(testChunkSize * 2 + 9, 'owner only') };
    await owner.upload(file);

    const foreign = (await other.chunk(file, 2)).json;
    expect(foreign.code).toBe(Code.Failure);
    expect(foreign.msg).toContain('ShouldRetryUpload');
    expect(foreign.data).toEqual({
      error: 'http.shouldRetryUpload',
      params: { reason: { key: 'files.noUploadInProgress' } },
    });

    const short = (await owner.chunk(file, 2, file.data.subarray(testChunkSize * 2 + 1))).json;
    expect(short.code).toBe(Code.Failure);
    expect(short.data).not.toHaveProperty('path');
    expect(short.data).toHaveProperty('error');
  });

  it('goes on with the token it started with while the page rotates it, and that token does nothing else', async () => {
    const { token: started } = await t.loginAdmin();
    const uploader = new WebUploader(t, 'admin', started);
    const file = { name: 'long.txt', data: textFile(testChunkSize * 11 + 3, 'long upload') };
    expect((await uploader.init(file)).json.data).toMatchObject({ chunkUploaded: 0, chunks: 12 });
    // A chunk every 3 minutes: a long upload over a slow line.
    const next = async (index: number) => {
      t.clock.advance(3 * MIN);
      return uploader.chunk(file, index);
    };
    for (let index = 0; index < 5; index += 1) expect((await next(index)).json.code).toBe(0);

    // Upload calls never rotate, though the token is 15 minutes old: WebUploader would drop it.
    const unrotated = await next(5);
    expect(unrotated.json.code).toBe(0);
    expect(unrotated.res.headers[TokenKey.admin]).toBe(started);

    // The page rotates it, and the 60 s grace runs out.
    t.clock.advance(MIN);
    const second = String((await pageCall(started)).token);
    expect(second).not.toBe(started);
    const granted = await next(6);
    expect(granted.json).toMatchObject({ code: 0, data: { chunkUploaded: 7 } });
    expect(granted.res.headers[TokenKey.admin]).toBeUndefined();

    // Nothing but this file's upload: not the admin API, the library, another file or `save`.
    expect((await pageCall(started)).id).toBe(0);
    const list = await t.app.inject({
      method: 'POST',
      url: managerUrl('admin', 'file'),
      headers: { [TokenKey.admin]: started, 'content-type': 'application/json' },
      payload: JSON.stringify({ action: 'list' }),
    });
    expect(list.json<Envelope>().code).toBe(Code.NotLoggedIn);
    const another = { name: 'another.txt', data: textFile(testChunkSize * 2, 'another') };
    expect((await uploader.init(another)).json.code).toBe(Code.NotLoggedIn);
    expect((await new WebUploader(t, 'admin', second).init(another)).json.code).toBe(0);
    expect((await uploader.chunk(another, 0)).json.code).toBe(Code.NotLoggedIn);
    const save = await t.post(
      managerUrl('admin', 'file'),
      { action: 'save', path: '/data/file/00/x.txt', name: 'x.txt' },
      { area: 'admin', token: started },
    );
    expect(save.json.code).toBe(Code.NotLoggedIn);

    // Two rotations on, the token is not even the session's previous one.
    for (let index = 7; index < 11; index += 1) expect((await next(index)).json.code).toBe(0);
    t.clock.advance(4 * MIN);
    const third = String((await pageCall(second)).token);
    expect(third).not.toBe(second);
    const last = (await next(11)).json;
    expect(last.data.path).toMatch(/^\/data\/file\//);
    const served = await t.app.inject({ method: 'GET', url: last.data.path ?? '' });
    expect(served.rawPayload.equals(file.data)).toBe(true);
    // A retried last chunk (its answer lost) is answered alike.
    expect(finished((await uploader.chunk(file, 11)).json)).toEqual(finished(last));
    expect((await pageCall(third)).id).toBeGreaterThan(0);

    // Once the upload has been quiet for 10 minutes, the grant is over.
    t.clock.advance(11 * MIN);
    expect((await uploader.chunk(file, 11)).json.code).toBe(Code.NotLoggedIn);
  });

  it('ends the grant with the sign-in session', async () => {
    const { token: started } = await t.loginAdmin();
    const uploader = new WebUploader(t, 'admin', started);
    const file = { name: 'cut.txt', data: textFile(testChunkSize * 8, 'signed out') };
    await uploader.init(file);
    for (let index = 0; index < 6; index += 1) {
      t.clock.advance(3 * MIN);
      expect((await uploader.chunk(file, index)).json.code).toBe(0);
    }
    const current = String((await pageCall(started)).token);
    t.clock.advance(2 * MIN);
    expect((await uploader.chunk(file, 6)).json.code).toBe(0);

    const logout = await t.post('/admin/api/auth/logout', {}, { area: 'admin', token: current });
    expect(logout.json.code).toBe(0);
    expect((await uploader.chunk(file, 7)).json.code).toBe(Code.NotLoggedIn);
  });
});
