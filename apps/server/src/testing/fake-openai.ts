import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted OpenAI-compatible HTTP server for tests, browser specs and benchmarks: streams SSE
 * chunks of `POST /v1/chat/completions`, lists models at `GET /v1/models`, answers
 * `POST /v1/embeddings` with word-hash vectors (`fakeEmbedding`), plays scripted
 * replies with delays, mid-stream failures and HTTP errors, and records every request,
 * including whether the client aborted it. Plain node:http, no dependencies.
 */

interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

interface FakeReply {
  /** The answer, streamed one piece per chunk (see `tokens`). */
  text?: string;
  /** The exact pieces to stream, instead of splitting `text`. */
  chunks?: string[];
  /** Wait before the response headers. */
  headersDelayMs?: number;
  /** Wait after the headers, before the first chunk. */
  firstDelayMs?: number;
  /** Wait between chunks. */
  delayMs?: number;
  /** Cut the connection after this many content chunks (a provider dying mid-answer). */
  failAfter?: number;
  /** Send an SSE error event after this many content chunks. */
  errorAfter?: number;
  errorMessage?: string;
  /** Answer this HTTP status with an OpenAI-style error body instead of a stream. */
  status?: number;
  error?: { message: string; type?: string; code?: string };
  /** Usage for the final chunk when the client asks for it; false leaves it out. */
  usage?: FakeUsage | false;
  /** After the chunks, keep the stream open until the client goes away. */
  hang?: boolean;
  /**
   * After the chunks, keep streaming this piece, every `delayMs` (as fast as the socket takes it
   * when 0), until the client goes away: a provider that ignores `max_tokens`.
   */
  endless?: string;
}

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined for bodiless requests. */
  body: unknown;
  startedAt: number;
  /** Content chunks written so far. */
  chunksSent: number;
  /** The response ended normally. */
  finished: boolean;
  /** The client closed the connection before the response ended. */
  aborted: boolean;
}

type ReplySource = FakeReply | ((body: ChatBody) => FakeReply);

export interface FakeOpenAiOptions {
  port?: number;
  host?: string;
  /** When set, requests with another bearer key get 401 (the message echoes the key, as OpenAI's does). */
  apiKey?: string;
  models?: string[];
  /** Played when no scripted reply is queued; the default echoes the last user message. */
  defaultReply?: ReplySource;
}

export interface FakeOpenAi {
  /** Base URL to configure as a provider, ending in /v1. */
  url: string;
  requests: RecordedRequest[];
  /** Queues replies for the next chat completions, in order. */
  script(...replies: ReplySource[]): void;
  setDefault(reply: ReplySource): void;
  /** Resolves once `predicate` holds, checking every 5 ms. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** The chat completion requests, in arrival order. */
  completions(): RecordedRequest[];
  close(): Promise<void>;
}

export interface ChatBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages?: { role: string; content: unknown }[];
  [key: string]: unknown;
}

/**
 * What a tokenizer would roughly count (one per CJK character, one per four other characters),
 * and never less than the pieces streamed: the usage the fake reports by default, as a real
 * provider's count is close to the text's size.
 */
function completionTokensOf(pieces: readonly string[]): number {
  const text = pieces.join('');
  const wide = text.match(/[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\u3040-\u30FF]/g)?.length ?? 0;
  return Math.max(pieces.length, wide + Math.ceil((text.length - wide) / 4));
}

/** Writes one SSE event, waiting while the socket's buffer is full. */
async function send(res: ServerResponse, data: string): Promise<void> {
  if (!res.write(data)) await new Promise((resolve) => res.once('drain', resolve));
}

/** Splits text into word-sized pieces (each CJK character is its own piece), as models stream. */
export function tokens(text: string): string[] {
  return text.match(/[\u3000-\u9fff]|[^\s\u3000-\u9fff]+\s*|\s+/g) ?? [];
}

function lastUserText(body: ChatBody): string {
  const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  if (!user) return '';
  if (typeof user.content === 'string') return user.content;
  if (Array.isArray(user.content)) {
    return user.content
      .map((part: unknown) =>
        part && typeof part === 'object' && 'text' in part && typeof part.text === 'string'
          ? part.text
          : '',
      )
      .join('');
  }
  return '';
}

const echo: ReplySource = (body) => ({ text: `You said: ${lastUserText(body)}` });

/** Dimensions of the fake embeddings. */
const EMBEDDING_DIMENSIONS = 64;

/**
 * A deterministic embedding for `POST /v1/embeddings`: each word (case folded) adds one to a
 * dimension picked by its hash, so texts sharing words point the same way.
 */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    let hash = 0;
    for (const char of word) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
    vector[hash % EMBEDDING_DIMENSIONS] = (vector[hash % EMBEDDING_DIMENSIONS] ?? 0) + 1;
  }
  return vector;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Kills the connection the way a crashing provider does, after the chunks already written had
 * time to arrive (a reset right behind them could make the client's kernel drop them).
 */
async function cutOff(res: ServerResponse, reply: FakeReply): Promise<void> {
  await sleep(Math.max(reply.delayMs ?? 0, 30));
  res.destroy();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const requests: RecordedRequest[] = [];
  const queue: ReplySource[] = [];
  let fallback: ReplySource = options.defaultReply ?? echo;
  const models = options.models ?? ['fake-model', 'fake-vision'];
  let counter = 0;

  const stream = async (
    res: ServerResponse,
    rec: RecordedRequest,
    body: ChatBody,
    reply: FakeReply,
  ) => {
    const pieces = reply.chunks ?? tokens(reply.text ?? '');
    const id = `chatcmpl-fake-${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'fake-model';
    const alive = () => !rec.aborted && !res.destroyed;
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    if (reply.firstDelayMs) await sleep(reply.firstDelayMs);
    if (!alive()) return;
    res.write(
      chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
    );
    for (const [index, piece] of pieces.entries()) {
      if (reply.failAfter !== undefined && index >= reply.failAfter) {
        await cutOff(res, reply);
        return;
      }
      if (reply.errorAfter !== undefined && index >= reply.errorAfter) {
        res.write(
          `data: ${JSON.stringify({ error: { message: reply.errorMessage ?? 'The model crashed', type: 'server_error' } })}\n\n`,
        );
        res.end();
        rec.finished = true;
        return;
      }
      if (index > 0 && reply.delayMs) await sleep(reply.delayMs);
      if (!alive()) return;
      res.write(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
      rec.chunksSent += 1;
    }
    if (reply.failAfter !== undefined && reply.failAfter >= pieces.length) {
      await cutOff(res, reply);
      return;
    }
    if (reply.endless !== undefined) {
      const piece = chunk([{ index: 0, delta: { content: reply.endless }, finish_reason: null }]);
      while (alive()) {
        // A fast endless stream still lets the event loop (and the client's abort) in.
        if (reply.delayMs) await sleep(reply.delayMs);
        else await new Promise((resolve) => setImmediate(resolve));
        if (!alive()) return;
        await send(res, piece);
        rec.chunksSent += 1;
      }
      return;
    }
    if (reply.hang) {
      await new Promise<void>((resolve) => res.once('close', () => resolve()));
      return;
    }
    if (!alive()) return;
    res.write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
    if (body.stream_options?.include_usage && reply.usage !== false) {
      const usage: FakeUsage = reply.usage ?? {
        prompt_tokens: Math.ceil(JSON.stringify(body.messages ?? []).length / 4),
        completion_tokens: completionTokensOf(pieces),
      };
      res.write(
        chunk([], {
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        }),
      );
    }
    res.write('data: [DONE]\n\n');
    res.end();
    rec.finished = true;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      return json(res, 400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      startedAt: Date.now(),
      chunksSent: 0,
      finished: false,
      aborted: false,
    };
    requests.push(rec);
    res.on('close', () => {
      if (!res.writableFinished) rec.aborted = true;
    });

    if (options.apiKey !== undefined) {
      const given = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      if (given !== options.apiKey) {
        return json(res, 401, {
          error: {
            message: `Incorrect API key provided: ${given}. You can find your API key in your account.`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        });
      }
    }

    if (req.method === 'GET' && path.endsWith('/models')) {
      return json(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
      });
    }
    if (req.method === 'POST' && path.endsWith('/embeddings')) {
      const { input, model } = (body ?? {}) as { input?: unknown; model?: string };
      const texts = (Array.isArray(input) ? input : [input]).map((item) => String(item ?? ''));
      return json(res, 200, {
        object: 'list',
        model: model ?? 'fake-embedding',
        data: texts.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: fakeEmbedding(text),
        })),
        usage: { prompt_tokens: texts.length, total_tokens: texts.length },
      });
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      return json(res, 404, {
        error: { message: `no route ${req.method} ${path}`, type: 'not_found' },
      });
    }

    const chat = (body ?? {}) as ChatBody;
    const source = queue.shift() ?? fallback;
    const reply = typeof source === 'function' ? source(chat) : source;
    if (reply.headersDelayMs) await sleep(reply.headersDelayMs);
    if (reply.status && reply.status >= 400) {
      rec.finished = true;
      return json(res, reply.status, {
        error: { type: 'server_error', ...(reply.error ?? { message: `HTTP ${reply.status}` }) },
      });
    }
    if (chat.stream) return stream(res, rec, chat, reply);
    const content = reply.chunks?.join('') ?? reply.text ?? '';
    rec.finished = true;
    return json(res, 200, {
      id: `chatcmpl-fake-${++counter}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: chat.model ?? 'fake-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 1,
        completion_tokens: tokens(content).length,
        total_tokens: 1 + tokens(content).length,
      },
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        json(res, 500, { error: { message: String(error), type: 'server_error' } });
      else res.destroy();
    });
  });
  // A thousand concurrent streams in the chat benchmark.
  server.maxConnections = 20_000;
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    requests,
    script: (...replies) => void queue.push(...replies),
    setDefault: (reply) => {
      fallback = reply;
    },
    completions: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    waitFor: async (predicate, timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error('fake OpenAI: condition not met in time');
        await sleep(5);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
