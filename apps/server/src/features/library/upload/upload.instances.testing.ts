import { createHash, randomBytes } from 'node:crypto';
import { request, type ClientRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Envelope } from '@atrium/shared';
import type { ChunkResponse } from '@atrium/shared/contract/files';
import type { ServerProcess } from '../../../testing/processes';
import { multipartBody } from '../library.testing';

/** Files and chunk requests the instances suite sends to real server processes. */

export const MiB = 1024 * 1024;
export const chunkSize = 5 * MiB;
/** DESIGN 2: nothing an instance holds outlives it by more than a few seconds. */
export const takeoverBoundMs = 5_000;
export const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

/** Text of random hex lines (a .txt must be UTF-8), so each file is new content. */
export function textFile(name: string, size: number) {
  const data = Buffer.from(
    randomBytes(Math.ceil(size / 2))
      .toString('hex')
      .slice(0, size)
      .replace(/(.{79})./g, '$1\n'),
  );
  return { name, data, md5: md5(data), chunks: Math.ceil(size / chunkSize) };
}
export type TestFile = ReturnType<typeof textFile>;

const xsrf = 'instances-xsrf';
export const headersOf = (token: string) => ({
  'admin-api-token': token,
  cookie: `XSRF-TOKEN=${xsrf}`,
  'x-xsrf-token': xsrf,
});

/** A chunk request on its way: its body is written as far as the caller says. */
export interface Sending {
  req: ClientRequest;
  answer: Promise<Envelope<ChunkResponse>>;
}

export function openChunk(server: ServerProcess, token: string, file: TestFile, index: number) {
  const { payload, contentType } = multipartBody(
    {
      id: 'WU_FILE_0',
      name: file.name,
      type: 'text/plain',
      size: String(file.data.length),
      chunks: String(file.chunks),
      chunk: String(index),
      md5: file.md5,
    },
    file.data.subarray(index * chunkSize, (index + 1) * chunkSize),
  );
  const req = request({
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    path: '/admin/data/file_manager/file',
    headers: {
      ...headersOf(token),
      'content-type': contentType,
      'content-length': String(payload.length),
    },
  });
  const answer = new Promise<Envelope<ChunkResponse>>((resolve, reject) => {
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(parts).toString()) as Envelope<ChunkResponse>);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    req.on('error', reject);
  });
  // A request cut off on purpose: its rejection is expected and looked at where it matters.
  answer.catch(() => undefined);
  return { req, payload, answer };
}

export function sendChunk(server: ServerProcess, token: string, file: TestFile, index: number) {
  const { req, payload, answer } = openChunk(server, token, file, index);
  req.end(payload);
  return answer;
}

/** Sends all of a chunk's request but the last `held` bytes, and keeps the request open. */
export function sendChunkHead(
  server: ServerProcess,
  token: string,
  file: TestFile,
  index: number,
  held: number,
): Sending {
  const { req, payload, answer } = openChunk(server, token, file, index);
  req.write(payload.subarray(0, payload.length - held));
  return { req, answer };
}

export async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Sends a chunk to `server` after `since` and reports the answer with the seconds since then. */
export async function timedChunk(
  since: number,
  server: ServerProcess,
  token: string,
  file: TestFile,
  index: number,
) {
  const answer = await sendChunk(server, token, file, index);
  return { answer, seconds: (performance.now() - since) / 1000 };
}
