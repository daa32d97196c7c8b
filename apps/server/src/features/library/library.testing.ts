import type { AreaName } from '@atrium/shared/areas';
import { createHash, randomBytes } from 'node:crypto';
import type { Envelope } from '@atrium/shared';
import type {
  ChunkResponse,
  FileRecord,
  InitResponse,
  UploadConfig,
} from '@atrium/shared/contract/files';
import { defaultUploadConfig } from '@atrium/shared/contract/files';
import type { Language } from '@atrium/shared/messages/catalogue';
import type { LightMyRequestResponse } from 'fastify';
import { authHeaders, type TestApp } from '../../testing/test-app';

export type Area = AreaName;

export interface Caller {
  area: Area;
  token: string;
}

export const md5Of = (data: Buffer) => createHash('md5').update(data).digest('hex');

export function managerUrl(area: Area, library: string): string {
  return area === 'admin'
    ? `/admin/data/file_manager/${library}`
    : `/member_data/file_manager/${library}`;
}

/** A small chunk size keeps test files small while still spanning several chunks. */
export const testChunkSize = 1024;

/** DESIGN 6's libraries, with a small chunk size and the file library also taking svg and html. */
const testUploadConfig: UploadConfig = {
  chunkSize: testChunkSize,
  parallelChunks: 3,
  category: {
    ...defaultUploadConfig.category,
    file: {
      extensions: [...defaultUploadConfig.category.file.extensions, 'svg', 'html'],
      maxSize: 64 * 1024,
    },
  },
};

export async function useUploadConfig(
  t: TestApp,
  config: UploadConfig = testUploadConfig,
): Promise<void> {
  await t.app.services.settings.set('upload', config, t.clock.now());
}

/** A multipart/form-data body the way the upload button sends a chunk (SPEC 7.2). */
export function multipartBody(
  fields: Record<string, string>,
  file: Buffer | undefined,
): { payload: Buffer; contentType: string } {
  const boundary = `----atrium${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export interface UploadFile {
  name: string;
  data: Buffer;
  md5?: string;
}

export class FileClient {
  constructor(
    readonly t: TestApp,
    readonly as: Caller,
    readonly library: string,
    /** The language asked for (Accept-Language); none: the site's default, zh-CN. */
    readonly lang?: Language,
  ) {}

  get url(): string {
    return managerUrl(this.as.area, this.library);
  }

  /** The same caller asking in `lang`. */
  in(lang: Language): FileClient {
    return new FileClient(this.t, this.as, this.library, lang);
  }

  private headers(): Record<string, string> {
    return {
      ...authHeaders(this.as.area, this.as.token),
      ...(this.lang ? { 'accept-language': this.lang } : {}),
    };
  }

  call<T = unknown>(body: Record<string, unknown>): Promise<Envelope<T>> {
    return this.send<T>('application/json', JSON.stringify(body));
  }

  /** A call as a form body, the way ModStart's jQuery posts it (`id[]=1&id[]=2` for a list). */
  callForm<T = unknown>(form: string): Promise<Envelope<T>> {
    return this.send<T>('application/x-www-form-urlencoded; charset=UTF-8', form);
  }

  private async send<T>(contentType: string, payload: string): Promise<Envelope<T>> {
    const res = await this.t.app.inject({
      method: 'POST',
      url: this.url,
      headers: { 'content-type': contentType, ...this.headers() },
      payload,
    });
    return res.json<Envelope<T>>();
  }

  init(file: UploadFile): Promise<Envelope<InitResponse>> {
    return this.call<InitResponse>({
      action: 'init',
      name: file.name,
      type: 'application/octet-stream',
      lastModifiedDate: new Date(0).toString(),
      size: file.data.length,
      md5: file.md5 ?? md5Of(file.data),
    });
  }

  /** Sends one chunk; `override` replaces any form field or the body itself. */
  async sendChunk(
    file: UploadFile,
    index: number,
    override: { fields?: Record<string, string>; body?: Buffer; chunkSize?: number } = {},
  ): Promise<{ res: LightMyRequestResponse; json: Envelope<ChunkResponse> }> {
    const chunkSize = override.chunkSize ?? testChunkSize;
    const chunks = Math.ceil(file.data.length / chunkSize);
    const fields = {
      id: 'WU_FILE_0',
      name: file.name,
      type: 'application/octet-stream',
      lastModifiedDate: new Date(0).toString(),
      size: String(file.data.length),
      chunks: String(chunks),
      chunk: String(index),
      md5: file.md5 ?? md5Of(file.data),
      ...override.fields,
    };
    const body = override.body ?? file.data.subarray(index * chunkSize, (index + 1) * chunkSize);
    const { payload, contentType } = multipartBody(fields, body);
    const res = await this.t.app.inject({
      method: 'POST',
      url: this.url,
      headers: { ...this.headers(), 'content-type': contentType },
      payload,
    });
    return { res, json: res.json<Envelope<ChunkResponse>>() };
  }

  /** init, then every chunk init says is missing; the last answer. */
  async upload(
    file: UploadFile,
    chunkSize = testChunkSize,
  ): Promise<Envelope<ChunkResponse | InitResponse>> {
    const init = await this.init(file);
    if (init.code !== 0) return init;
    if (init.data.path) return init;
    const chunks = Math.ceil(file.data.length / chunkSize);
    let last: Envelope<ChunkResponse> | undefined;
    for (let i = init.data.chunkUploaded; i < chunks; i += 1) {
      last = (await this.sendChunk(file, i, { chunkSize })).json;
      if (last.code !== 0) return last;
    }
    if (!last) throw new Error('nothing was sent');
    return last;
  }

  /** Uploads and files the result into the library. */
  async uploadAndSave(file: UploadFile, categoryId = 0) {
    const done = await this.upload(file);
    if (done.code !== 0 || !done.data.path) throw new Error(`upload failed: ${done.msg}`);
    const saved = await this.call<FileRecord>({
      action: 'save',
      path: done.data.path,
      name: file.name,
      size: file.data.length,
      categoryId,
    });
    if (saved.code !== 0) throw new Error(`save failed: ${saved.msg}`);
    return saved.data;
  }
}

/** Printable UTF-8 text of a given length, spanning several chunks. */
export function textFile(length: number, seed = 'atrium'): Buffer {
  const line = `${seed} 文件 line of text for the upload tests\n`;
  let text = '';
  while (Buffer.byteLength(text) < length) text += line;
  return Buffer.from(
    Buffer.from(text)
      .subarray(0, length)
      .toString('utf8')
      .replace(/\uFFFD/g, 'x'),
  );
}
