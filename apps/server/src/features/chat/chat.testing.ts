import type { AreaName } from '@atrium/shared/areas';
import type { Envelope } from '@atrium/shared';
import type {
  AdminRoomRecord,
  ChatQuota,
  ChatSendResponse,
  ConversationRecord,
  MessageStatus,
  ModelRecord,
  ProviderRecord,
  RoomSaveRequest,
  StreamEvent,
} from '@atrium/shared/contract/chat';
import { chatCalls } from '@atrium/shared/contract/chat';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { authHeaders, type TestApp } from '../../testing/test-app';
import type { FakeOpenAi } from '../../testing/fake-openai';
import type { Bus } from '../../bus/types';
import type { ChatDb } from './chat.tables';

export const TEST_API_KEY = 'sk-test-0123456789-SECRET-abcdef';

/** A quota that limits nothing, for tests that send many messages. */
export const unlimited: ChatQuota = {
  messagesPerDay: 0,
  messagesPerMinute: 0,
  tokensPerDay: 0,
  tokensPerMonth: 0,
  costPerDay: 0,
  costPerMonth: 0,
};

export interface Seeded {
  adminToken: string;
  provider: ProviderRecord;
  model: ModelRecord;
  room: AdminRoomRecord;
}

type Caller = { area: AreaName; token: string };

export async function expectOk<T>(
  t: Pick<TestApp, 'post'>,
  url: string,
  body: unknown,
  as?: Caller,
): Promise<T> {
  const { json } = await t.post<T>(url, body, as);
  if (json.code !== 0) throw new Error(`${url} failed: ${json.msg}`);
  return json.data;
}

/** POSTs as `t.post` does, asking for the answer in `lang` (Accept-Language). */
export async function postIn<T = unknown>(
  t: Pick<TestApp, 'app'>,
  lang: string,
  url: string,
  body: unknown,
  as?: Caller,
): Promise<Envelope<T>> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      'accept-language': lang,
      ...(as ? authHeaders(as.area, as.token) : {}),
    },
    payload: JSON.stringify(body),
  });
  return res.json<Envelope<T>>();
}

/** Sets the members' quota to `unlimited`, as the admin `seedRoom` signed in. */
export async function removeQuota(t: Pick<TestApp, 'post'>, seeded: Seeded): Promise<void> {
  await expectOk(t, '/admin/api/aigc/usage/quota_save', unlimited, {
    area: 'admin',
    token: seeded.adminToken,
  });
}

/** A provider pointing at the fake server, one model and one room, through the admin API. */
export async function seedRoom(
  t: Pick<TestApp, 'post' | 'loginAdmin'>,
  fake: FakeOpenAi,
  room: Partial<RoomSaveRequest> = {},
  model: { vision?: boolean; contextLength?: number } = {},
): Promise<Seeded> {
  const { token: adminToken } = await t.loginAdmin();
  const as = { area: 'admin' as const, token: adminToken };
  const provider = await expectOk<ProviderRecord>(
    t,
    '/admin/api/aigc/provider/save',
    { id: 0, name: 'Fake AI', baseUrl: fake.url, apiKey: TEST_API_KEY },
    as,
  );
  const savedModel = await expectOk<ModelRecord>(
    t,
    '/admin/api/aigc/model/save',
    {
      id: 0,
      providerId: provider.id,
      name: model.vision ? 'fake-vision' : 'fake-model',
      title: model.vision ? 'Fake Vision' : 'Fake Model',
      vision: model.vision ?? false,
      contextLength: model.contextLength ?? 8192,
      enabled: true,
    },
    as,
  );
  const saved = await expectOk<AdminRoomRecord>(
    t,
    '/admin/api/aigc/chat_room/save',
    { id: 0, title: 'Test room', modelId: savedModel.id, ...room },
    as,
  );
  return { adminToken, provider, model: savedModel, room: saved };
}

export async function newConversation(
  t: Pick<TestApp, 'post'>,
  token: string,
  roomId: number,
): Promise<ConversationRecord> {
  return expectOk<ConversationRecord>(
    t,
    '/api/aigc/conversation/create',
    { roomId },
    { area: 'member', token },
  );
}

export function send(
  t: Pick<TestApp, 'post'>,
  token: string,
  conversationId: number,
  content: string,
  images: string[] = [],
): Promise<{ json: Envelope<ChatSendResponse> }> {
  return t.post<ChatSendResponse>(
    '/api/aigc/chat/send',
    { conversationId, content, images },
    { area: 'member', token },
  );
}

export type SseEvent = StreamEvent;

const streamEvents = chatCalls['aigc/chat/stream'].events;

/**
 * Parses an SSE body as the browser client does, each event checked against its declaration
 * (`streamEvents`): an event the contract does not declare, or a `data` it does not allow,
 * fails the test reading it.
 */
function parseSse(text: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = '';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (event === 'delta' || event === 'done' || event === 'error') {
      events.push({ event, data: streamEvents[event].parse(JSON.parse(data)) } as SseEvent);
    } else if (event !== '' || data !== '') {
      // A keep-alive comment (`: ping`) is neither.
      throw new Error(`undeclared stream event "${event}": ${data}`);
    }
  }
  return { events, rest };
}

/** Starts listening on a free loopback port: streams need a real socket to be cut mid-way. */
export async function listen(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export interface StreamRead {
  events: SseEvent[];
  /** The content rebuilt from deltas; reading throws on a gap or a repeat. */
  text: string;
  status: number;
  contentType: string;
  /** The envelope, when the server refused before streaming. */
  envelope?: Envelope;
}

/**
 * Reads `aigc/chat/stream` over HTTP until the stream ends, `stopWhen` holds (then the
 * connection is cut, like a closed tab), or `onEvent` throws. `onOpen` runs once the response
 * headers have arrived.
 */
export async function readStream(
  base: string,
  token: string,
  body: { messageId: number; offset?: number },
  options: {
    stopWhen?: (read: StreamRead) => boolean;
    start?: string;
    onEvent?: (e: SseEvent) => void;
    onOpen?: () => void;
  } = {},
): Promise<StreamRead> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/aigc/chat/stream`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'is-ajax': 'true',
      ...authHeaders('member', token),
    },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  options.onOpen?.();
  const contentType = res.headers.get('content-type') ?? '';
  const read: StreamRead = {
    events: [],
    text: options.start ?? '',
    status: res.status,
    contentType,
  };
  if (!contentType.startsWith('text/event-stream')) {
    read.envelope = (await res.json()) as Envelope;
    return read;
  }
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const parsed = parseSse(buffer);
      buffer = parsed.rest;
      for (const event of parsed.events) {
        read.events.push(event);
        options.onEvent?.(event);
        if (event.event === 'delta') {
          const { offset, text } = event.data;
          // Strict: a gap or a repeat would both show as an offset other than what we hold.
          if (offset !== read.text.length) {
            throw new Error(`delta at ${offset} but ${read.text.length} characters held`);
          }
          read.text += text;
        }
      }
      if (options.stopWhen?.(read)) {
        controller.abort();
        break;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      controller.abort();
      throw error;
    }
  }
  return read;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** What one client following an answer saw, as it saw it. */
export interface Watch {
  text: string;
  /** Time from the request to its response headers. */
  headersMs?: number;
  end?: SseEvent;
  endedAt?: number;
  /** Settles when the stream ends or is cut (then with the error). */
  closed: Promise<unknown>;
}

export /** Follows an answer's stream like a client (re-attaching at `start`), noting what it saw. */
function watch(base: string, token: string, messageId: number, start = ''): Watch {
  const startedAt = performance.now();
  const seen: Watch = { text: start, closed: Promise.resolve() };
  seen.closed = readStream(
    base,
    token,
    { messageId, offset: start.length },
    {
      start,
      onOpen: () => {
        seen.headersMs = performance.now() - startedAt;
      },
      onEvent: (event) => {
        if (event.event === 'delta') {
          seen.text = seen.text.slice(0, event.data.offset) + event.data.text;
        } else {
          seen.end = event;
          seen.endedAt = performance.now();
        }
      },
    },
  ).catch((error: unknown) => error);
  return seen;
}

/** Polls `check` until it holds, or fails after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

/**
 * One instance's view of a bus shared in this process, which that instance can lose as a killed
 * (or cut-off) process loses its Redis connection: once cut, its reads and writes fail and its
 * subscriptions hear nothing, while the other instances' views go on.
 */
export function cuttableBus(bus: Bus): { bus: Bus; cut(): void } {
  let cut = false;
  const calls = new Set<PropertyKey>(['get', 'set', 'del', 'incr', 'ttl', 'publish']);
  const view = new Proxy(bus, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop === 'subscribe')
        return (channel: string, handler: (message: string) => void) =>
          target.subscribe(channel, (message) => {
            if (!cut) handler(message);
          });
      if (!calls.has(prop)) return value.bind(target) as unknown;
      return (...args: unknown[]) =>
        cut
          ? Promise.reject(new Error('bus connection cut'))
          : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
  return {
    bus: view,
    cut: () => {
      cut = true;
    },
  };
}

/**
 * Inserts a bare answer row (its conversation, member and room play no part: foreign keys are
 * off in the tests that use it) and answers its id.
 */
export async function insertBareAnswer(
  chat: ChatDb,
  { status = 'streaming', writer = 'w', content = 'Hi' }: BareAnswer = {},
): Promise<number> {
  const { id } = await chat
    .insertInto('chatMessages')
    .values({
      conversationId: 1,
      role: 'assistant',
      content,
      images: '[]',
      error: '',
      status,
      writerInstance: writer,
      createdAt: 1,
      updatedAt: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

interface BareAnswer {
  status?: MessageStatus;
  writer?: string;
  content?: string;
}
