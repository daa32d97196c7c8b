import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileManagerCalls } from '@atrium/shared/contract/files';
import type { ZodType } from 'zod';
import { missingRanges } from '@atrium/shared/upload-chunks';
import { Code } from '@atrium/shared/codes';
import { shouldRetryUpload } from '@atrium/shared/limits';
import { unavailableData, type Outage } from '@atrium/shared/outage';
import {
  createLibrary,
  fail,
  ok,
  type Answer,
  type Body,
  type TestCategory,
  type TestFile,
} from './library-actions';

/**
 * A real HTTP server speaking the file library's protocol (SPEC 7.2, 7.3) for component tests:
 * it keeps categories, files and upload sessions in memory, records every call, and can be told
 * to fail chunks so retries and resumes can be watched from the outside.
 */
interface RecordedCall {
  action: string;
  category: string;
  body: Body;
}

interface Session {
  chunks: Map<number, Buffer>;
}

export interface FileManagerTestServer {
  /** e.g. http://127.0.0.1:41234/member_data/file_manager */
  url: string;
  /** The same library at the admin area's address (http://127.0.0.1:41234/admin/data/file_manager). */
  adminUrl: string;
  calls: RecordedCall[];
  categories: TestCategory[];
  files: TestFile[];
  chunkSize: number;
  /** Answer the next n chunk calls with HTTP 500. */
  failChunks(n: number): void;
  /** Hold every chunk call this long before answering (to see several in flight). */
  holdChunks(ms: number): void;
  /** The most chunk calls that were in flight at once. */
  maxChunksInFlight(): number;
  /** Chunk calls arrived and not yet answered (held ones included). */
  chunksInFlight(): number;
  /** What `config` answers as `parallelChunks` from now on (an admin's save). */
  setParallelChunks(count: number): void;
  /** Chunk calls that arrived while another of the same file was still in flight, by index. */
  overlappedChunks: string[];
  /** Answer the next last-chunk with a ShouldRetryUpload refusal. */
  refuseLastChunkOnce(): void;
  /** Store chunks 0..count-1 of `content` as if an earlier attempt had sent them. */
  seedChunks(
    meta: { name: string; size: number; md5: string },
    content: Buffer,
    count: number,
  ): void;
  /** Make `content` already stored, so init answers an instant upload. */
  seedStored(content: Buffer): void;
  /** The action answers `{code: -1, msg, data}` until cleared (`data`: the catalogue key, as the server names it). */
  refuse(action: string, msg: string | undefined, data?: unknown): void;
  /**
   * The next `count` calls of the action are refused as the server refuses them when storage,
   * the database or Redis is out of reach, or the disk is full (code 1005, issue 26).
   */
  unavailable(action: string, outage: Outage, count: number): void;
  callsOf(action: string): RecordedCall[];
  close(): Promise<void>;
}

const cors = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

export async function startFileManagerTestServer(
  options: { chunkSize?: number; rootName?: string; parallelChunks?: number } = {},
): Promise<FileManagerTestServer> {
  const chunkSize = options.chunkSize ?? 64 * 1024;
  let holdMs = 0;
  let parallelChunks = options.parallelChunks ?? 3;
  let inFlight = 0;
  let maxInFlight = 0;
  const overlappedChunks: string[] = [];
  const rootName = options.rootName ?? 'File Gallery';
  const calls: RecordedCall[] = [];
  const library = createLibrary(rootName);
  const { categories, files } = library;
  const sessions = new Map<string, Session>();
  const stored = new Map<string, string>();
  const refusals = new Map<string, { msg: string; data: unknown }>();
  const outages = new Map<string, { outage: Outage; left: number }>();
  let failing = 0;
  let refuseLast = false;

  const sessionKey = (m: { name: string; size: number; md5: string }) =>
    `${m.md5}:${m.size}:${m.name}`;
  const contiguous = (s: Session) => {
    let n = 0;
    while (s.chunks.has(n)) n++;
    return n;
  };
  const pathOf = (hash: string, name: string) =>
    `/data/files/${hash}${name.slice(name.lastIndexOf('.'))}`;

  /** Requests and answers that strayed from their declarations; `close()` fails on any. */
  const drift: string[] = [];
  const conforms = (schema: ZodType, value: unknown, what: string): boolean => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return true;
    const issue = parsed.error.issues[0];
    drift.push(`${what}: ${issue?.path.join('.') || 'body'}: ${issue?.message}`);
    return false;
  };
  const isAction = (action: string): action is keyof typeof fileManagerCalls =>
    Object.hasOwn(fileManagerCalls, action);

  /**
   * Answers like the server, checking both sides against the shared declarations (SPEC 7.2,
   * 7.3): the fake can drift from the real server no more than the client can.
   */
  async function handle(category: string, body: Body, file: Buffer | undefined): Promise<Answer> {
    const action = file ? 'chunk' : String(body.action);
    if (!isAction(action)) {
      drift.push(`unknown action ${action}`);
      return fail(`unknown action ${action}`);
    }
    const declared = fileManagerCalls[action];
    if (!conforms(declared.request, body, `${action} request`))
      return fail(`${action}: the request does not match its declaration`);
    const answer = await respond(action, category, body, file);
    if ('code' in answer && answer.code === 0)
      conforms(declared.answer, answer.data, `${action} answer`);
    return answer;
  }

  async function respond(
    action: string,
    category: string,
    body: Body,
    file: Buffer | undefined,
  ): Promise<Answer> {
    calls.push({ action, category, body });
    const refusal = refusals.get(action);
    if (refusal !== undefined) return { code: -1, msg: refusal.msg, data: refusal.data };
    const out = outages.get(action);
    if (out && out.left > 0) {
      out.left -= 1;
      // The server's words on file-manager routes (the web renders from `data`, not from them).
      const msg = `Storage is temporarily unavailable: nothing was lost, try again (${shouldRetryUpload})`;
      return { code: Code.Unavailable, msg, data: unavailableData(out.outage) };
    }
    switch (action) {
      case 'config':
        return ok({
          chunkSize,
          parallelChunks,
          category: {
            image: { extensions: ['jpg', 'jpeg', 'png', 'gif', 'webp'], maxSize: 20 * 1024 * 1024 },
            file: { extensions: ['pdf', 'txt', 'bin'], maxSize: 64 * 1024 * 1024 },
            video: { extensions: ['mp4'], maxSize: 64 * 1024 * 1024 },
            audio: { extensions: ['mp3'], maxSize: 64 * 1024 * 1024 },
          },
        });
      case 'init': {
        const size = Number(body.size);
        const chunks = Math.ceil(size / chunkSize);
        const hash = String(body.md5);
        const done = stored.get(hash);
        if (done)
          return ok({
            chunkUploaded: chunks,
            chunks,
            chunkSize,
            path: done,
            fullPath: `http://cdn.test${done}`,
            data: { filename: String(body.name), size },
          });
        const key = sessionKey({ name: String(body.name), size, md5: hash });
        const session = sessions.get(key) ?? { chunks: new Map() };
        sessions.set(key, session);
        const missing = missingRanges(session.chunks.keys(), chunks);
        return ok({ chunkUploaded: contiguous(session), chunks, chunkSize, missing });
      }
      case 'chunk': {
        if (failing > 0) {
          failing--;
          return { status: 500 };
        }
        const size = Number(body.size);
        const chunks = Number(body.chunks);
        const index = Number(body.chunk);
        const key = sessionKey({ name: String(body.name), size, md5: String(body.md5) });
        const session = sessions.get(key);
        if (!session || !file) return fail('no upload session');
        session.chunks.set(index, file);
        if (contiguous(session) < chunks) return ok({ chunkUploaded: contiguous(session), chunks });
        const whole = Buffer.concat(
          [...Array(chunks).keys()].map((i) => session.chunks.get(i) ?? Buffer.alloc(0)),
        );
        if (refuseLast || md5(whole) !== body.md5) {
          refuseLast = false;
          sessions.delete(key);
          return fail('The file changed on the way, ShouldRetryUpload');
        }
        const path = pathOf(md5(whole), String(body.name));
        stored.set(md5(whole), path);
        sessions.delete(key);
        return ok({
          chunkUploaded: chunks,
          chunks,
          data: { filename: String(body.name), size: whole.length },
          path,
          fullPath: `http://cdn.test${path}`,
        });
      }
      default:
        return library.respond(action, category, body) ?? fail(`unknown action ${action}`);
    }
  }

  async function read(req: IncomingMessage): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    const match = /^\/(?:member_data|admin\/data)\/file_manager\/([a-z]+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match?.[1]) {
      res.writeHead(404, cors).end();
      return;
    }
    const raw = await read(req);
    const type = req.headers['content-type'] ?? '';
    let body: Body = {};
    let file: Buffer | undefined;
    if (type.startsWith('multipart/form-data')) {
      const form = await new Request('http://local/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: new Uint8Array(raw),
      }).formData();
      for (const [key, value] of form.entries()) {
        if (typeof value === 'string') body[key] = value;
        else file = Buffer.from(await value.arrayBuffer());
      }
      file ??= Buffer.alloc(0);
    } else {
      body = JSON.parse(raw.toString('utf8')) as Body;
    }
    const isChunk = file !== undefined;
    if (isChunk) {
      if (inFlight > 0) overlappedChunks.push(String(body.chunk));
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
    }
    let answer: Answer;
    try {
      if (isChunk && holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
      answer = await handle(match[1], body, file);
    } finally {
      if (isChunk) inFlight -= 1;
    }
    if ('status' in answer) {
      res.writeHead(answer.status, cors).end('boom');
      return;
    }
    res.writeHead(200, { ...cors, 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      res.writeHead(500, cors).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/member_data/file_manager`,
    adminUrl: `http://127.0.0.1:${port}/admin/data/file_manager`,
    calls,
    categories,
    files,
    chunkSize,
    failChunks: (n) => void (failing = n),
    holdChunks: (ms) => void (holdMs = ms),
    maxChunksInFlight: () => maxInFlight,
    chunksInFlight: () => inFlight,
    setParallelChunks: (count) => void (parallelChunks = count),
    overlappedChunks,
    refuseLastChunkOnce: () => void (refuseLast = true),
    seedChunks(meta, content, count) {
      const session: Session = { chunks: new Map() };
      for (let i = 0; i < count; i++)
        session.chunks.set(i, content.subarray(i * chunkSize, (i + 1) * chunkSize));
      sessions.set(sessionKey(meta), session);
    },
    seedStored(content) {
      const hash = md5(content);
      stored.set(hash, pathOf(hash, '.bin'));
    },
    refuse(action, msg, data = null) {
      if (msg === undefined) refusals.delete(action);
      else refusals.set(action, { msg, data });
    },
    unavailable(action, outage, count) {
      outages.set(action, { outage, left: count });
    },
    callsOf: (action) => calls.filter((c) => c.action === action),
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Requests still in flight are answered first (a reset would show as "socket hang up" in
        // the client); one left hanging on purpose is cut after a moment.
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
        server.close(() =>
          drift.length === 0
            ? resolve()
            : reject(
                new Error(`The file library strayed from its declarations:\n${drift.join('\n')}`),
              ),
        );
      }),
  };
}
