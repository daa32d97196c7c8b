import { Code, type AppConfigResponse, type Envelope } from '@atrium/shared';
import { defaultUploadConfig, type UploadConfig } from '@atrium/shared/contract/files';
import type { UploadSettingsView } from '@atrium/shared/contract/upload-settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, createTestApp, type TestApp, useTestApp } from '../../testing/test-app';
import { FileClient, md5Of } from '../library/library.testing';

const MiB = 1024 * 1024;

describe('upload settings on local storage', () => {
  let t: TestApp;
  let founder: string;
  useTestApp(async (app) => {
    t = app;
    founder = (await app.loginAdmin()).token;
  });

  const call = <T = unknown>(path: string, body: Record<string, unknown> = {}) =>
    t
      .post<T>(`/admin/api/settings/upload/${path}`, body, { area: 'admin', token: founder })
      .then((r) => r.json);

  /** A call asking for English answers. */
  const callInEnglish = async (path: string, body: Record<string, unknown> = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/api/settings/upload/${path}`,
      headers: {
        'content-type': 'application/json',
        'accept-language': 'en',
        ...authHeaders('admin', founder),
      },
      payload: JSON.stringify(body),
    });
    return res.json<Envelope>();
  };

  it('starts from the defaults', async () => {
    const res = await call<UploadSettingsView>('get');
    expect(res.data).toEqual({
      config: defaultUploadConfig,
      defaults: defaultUploadConfig,
      minChunkSize: 1,
      storageDriver: 'local',
    });
  });

  it('a save is what the upload `config` answer and `init` follow from the next call', async () => {
    const config: UploadConfig = {
      chunkSize: 2 * MiB,
      parallelChunks: 5,
      category: {
        ...defaultUploadConfig.category,
        file: { extensions: ['txt', 'log', 'txt'], maxSize: 1000 },
      },
    };
    const saved = await call<UploadSettingsView>('save', { config });
    expect(saved).toMatchObject({ code: 0, msg: '保存成功' });
    expect(saved.data.config.category.file.extensions).toEqual(['txt', 'log']);

    const member = await t.loginMember();
    const files = new FileClient(t, { area: 'member', token: member.token }, 'file');
    expect((await files.call({ action: 'config' })).data).toEqual({
      chunkSize: 2 * MiB,
      parallelChunks: 5,
      category: { ...config.category, file: { extensions: ['txt', 'log'], maxSize: 1000 } },
    });
    const pdf = Buffer.from('%PDF-1.4 tiny');
    expect((await files.init({ name: 'doc.pdf', data: pdf })).msg).toBe(
      '文件类型不合法（只能上传txt,log文件）',
    );
    const big = Buffer.alloc(1001, 'a');
    expect((await files.init({ name: 'big.log', data: big, md5: md5Of(big) })).msg).toBe(
      '文件大小不合法',
    );
  });

  it("changes app/config's Upload hash on a save, in both areas, so open pages fetch config again", async () => {
    const hashes = async () => {
      const member = await t.post<AppConfigResponse>('/api/app/config', {});
      const admin = await t.post<AppConfigResponse>('/admin/api/app/config', {});
      return [member.json.data.hashLazyValue?.Upload, admin.json.data.hashLazyValue?.Upload];
    };
    const [before, adminBefore] = await hashes();
    expect(before).toMatch(/^[0-9a-f]{16}$/);
    expect(adminBefore).toBe(before);
    expect(await hashes()).toEqual([before, before]);
    const current = (await call<UploadSettingsView>('get')).data.config;
    await call('save', {
      config: { ...current, parallelChunks: current.parallelChunks === 2 ? 3 : 2 },
    });
    const [after, adminAfter] = await hashes();
    expect(after).not.toBe(before);
    expect(adminAfter).toBe(after);
  });

  it('refuses extensions a browser can run in the image library, naming them', async () => {
    const config = structuredClone(defaultUploadConfig);
    config.category.image.extensions.push('svg', 'html');
    const res = await call('save', { config });
    expect(res.code).toBe(Code.Failure);
    expect(res.msg).toBe(
      'svg, html 可以在浏览器中运行脚本，不允许放入图片库；请把这类文件放入文件库',
    );
    expect(res.data).toEqual({
      error: 'files.runnableInImages',
      params: { extensions: 'svg, html' },
      field: 'category.image.extensions',
    });
    expect((await callInEnglish('save', { config })).msg).toBe(
      'svg, html can run scripts in a browser and is not allowed in the image library; put such files in the file library',
    );

    // The file library serves them as downloads, so they are fine there.
    const fileConfig = structuredClone(defaultUploadConfig);
    fileConfig.category.file.extensions.push('svg', 'html');
    expect((await call('save', { config: fileConfig })).code).toBe(0);
  });

  it('keeps original metadata per library only when told (absent: stripped), and refuses a non-boolean', async () => {
    const config = structuredClone(defaultUploadConfig);
    config.category.image = {
      ...config.category.image,
      extensions: [...config.category.image.extensions, 'heic'],
      keepMetadata: true,
    };
    const saved = await call<UploadSettingsView>('save', { config });
    expect(saved.code, saved.msg).toBe(0);
    expect(saved.data.config.category.image.keepMetadata).toBe(true);
    expect(saved.data.config.category.file.keepMetadata).toBeUndefined();
    const member = await t.loginMember();
    const images = new FileClient(t, { area: 'member', token: member.token }, 'image');
    const answer = await images.call<UploadConfig>({ action: 'config' });
    expect(answer.data.category.image).toEqual(config.category.image);

    const wrong = structuredClone(defaultUploadConfig) as unknown as Record<string, never>;
    const bad = {
      ...wrong,
      category: {
        ...defaultUploadConfig.category,
        video: { extensions: ['mp4'], maxSize: 10, keepMetadata: 'yes' },
      },
    };
    expect((await call('save', { config: bad })).data).toMatchObject({
      error: 'validation.type',
      field: 'config.category.video.keepMetadata',
    });
  });

  it('refuses malformed extensions and sizes with the field named', async () => {
    const config = structuredClone(defaultUploadConfig);
    config.category.video.extensions = ['.MP4'];
    expect(await call('save', { config })).toMatchObject({
      msg: '扩展名只能由小写字母和数字组成，例如 pdf 或 png',
      data: { error: 'files.extensionRule', field: 'config.category.video.extensions.0' },
    });
    expect((await callInEnglish('save', { config })).msg).toBe(
      'Extensions: expected extensions such as pdf or png (lower-case letters and digits)',
    );
    const sized = structuredClone(defaultUploadConfig);
    sized.category.audio.maxSize = 0;
    expect((await call('save', { config: sized })).data).toMatchObject({
      field: 'config.category.audio.maxSize',
    });
  });
});

describe('upload settings on S3 storage', () => {
  let t: TestApp;
  let founder: string;
  beforeAll(async () => {
    // Only settings are read and written here: the S3 endpoint is never contacted.
    t = await createTestApp({
      env: {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'atrium',
        S3_REGION: 'us-east-1',
        S3_ENDPOINT: 'http://127.0.0.1:9',
      },
    });
    founder = (await t.loginAdmin()).token;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('needs chunks of at least 5 MiB', async () => {
    const post = (path: string, body: Record<string, unknown> = {}) =>
      t
        .post<UploadSettingsView>(`/admin/api/settings/upload/${path}`, body, {
          area: 'admin',
          token: founder,
        })
        .then((r) => r.json);
    expect((await post('get')).data).toMatchObject({ minChunkSize: 5 * MiB, storageDriver: 's3' });
    const small = await post('save', { config: { ...defaultUploadConfig, chunkSize: 4 * MiB } });
    expect(small).toMatchObject({
      code: Code.Failure,
      msg: '使用 S3 存储时分片大小至少为 5 MiB（S3 的最小分段），当前为 4 MiB',
      data: { error: 'files.chunkSizeMinS3', field: 'chunkSize' },
    });
    expect(
      (await post('save', { config: { ...defaultUploadConfig, chunkSize: 8 * MiB } })).code,
    ).toBe(0);
    expect((await post('get')).data.config.chunkSize).toBe(8 * MiB);
  });
});
