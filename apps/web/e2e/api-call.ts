import type { Page } from '@playwright/test';
import type { Envelope } from '@atrium/shared';
import { TokenKey } from '@atrium/shared/limits';
import type { AreaName } from '@atrium/shared/areas';
import type { AnswerOf, RequestOf } from '@atrium/shared/contract/call';
import type { FileManagerCalls, Library } from '@atrium/shared/contract/files';
import type { AdminTable, MemberTable } from '@atrium/shared/contract/table';

/** The XSRF pair a signed-in client sends: the cookie and the header holding the same value. */
export const XSRF = 'e2e-api-xsrf';

/**
 * Who makes a call: from the test itself (`base` the server's root, with the area's token or
 * none), or from a signed-in page, the way the app does (token and XSRF echoed from its cookies).
 */
export type Caller<A extends AreaName = AreaName> =
  { area: A; base: string; token?: string } | { area: A; page: Page };

/** A caller signed in from the test itself, with its token. */
export type SignedIn<A extends AreaName> = { area: A; base: string; token: string };

type TableOf<A extends AreaName> = A extends 'admin' ? AdminTable : MemberTable;
/** A call's key in its area's table (packages/shared/src/contract/table.ts). */
export type CallPath<A extends AreaName> = keyof TableOf<A> & string;
/** The body a call sends and the `data` of its success, from its declaration. */
export type Body<A extends AreaName, P extends CallPath<A>> = RequestOf<TableOf<A>[P]>;
export type Answer<A extends AreaName, P extends CallPath<A>> = AnswerOf<TableOf<A>[P]>;

/** The file library's calls, by action: not in the table yet (they have their own declaration). */
type LibraryBody = { [K in keyof FileManagerCalls]: RequestOf<FileManagerCalls[K]> }[Exclude<
  keyof FileManagerCalls,
  'chunk'
>];
type LibraryAnswer<B> = B extends { action: infer K extends keyof FileManagerCalls }
  ? AnswerOf<FileManagerCalls[K]>
  : never;

/** POSTs JSON (or a multipart form) to `url` as `who`; answers the envelope as it came. */
async function post(who: Caller, url: string, body: unknown): Promise<Envelope> {
  const header = TokenKey[who.area];
  const form = body instanceof FormData ? body : undefined;
  if ('page' in who) {
    const cookies = await who.page.context().cookies();
    const cookie = (name: string) =>
      decodeURIComponent(cookies.find((c) => c.name === name)?.value ?? '');
    const origin = new URL(who.page.url()).origin;
    const res = await who.page.request.post(origin + url, {
      headers: {
        'is-ajax': 'true',
        [header]: cookie(header),
        'x-xsrf-token': cookie('XSRF-TOKEN'),
      },
      ...(form ? { multipart: form } : { data: body }),
    });
    return (await res.json()) as Envelope;
  }
  // A form sets its own content type (with its boundary).
  const headers: Record<string, string> = form
    ? { 'is-ajax': 'true' }
    : { 'content-type': 'application/json', 'is-ajax': 'true' };
  if (who.token) {
    headers[header] = who.token;
    headers.cookie = `XSRF-TOKEN=${XSRF}`;
    headers['x-xsrf-token'] = XSRF;
  }
  const res = await fetch(who.base.replace(/\/$/, '') + url, {
    method: 'POST',
    headers,
    body: form ?? JSON.stringify(body),
  });
  return (await res.json()) as Envelope;
}

/**
 * A call named by its key in the area's table: the body's and the answer's types come from its
 * declaration, so a renamed path or a changed answer fails the typecheck. Answers the envelope
 * (to check a refusal's code); `call` below answers the data of a success.
 */
export async function send<A extends AreaName, P extends CallPath<A>>(
  who: Caller<A>,
  path: P,
  body: Body<A, P>,
): Promise<Envelope<Answer<A, P>>> {
  const url = who.area === 'admin' ? `/admin/api/${path}` : `/api/${path}`;
  return (await post(who, url, body)) as Envelope<Answer<A, P>>;
}

/** `send`, answering `data`; throws with the path and the server's message on any code but 0. */
export async function call<A extends AreaName, P extends CallPath<A>>(
  who: Caller<A>,
  path: P,
  body: Body<A, P>,
): Promise<Answer<A, P>> {
  const answer = await send(who, path, body);
  if (answer.code !== 0) throw new Error(`${path}: ${answer.msg}`);
  return answer.data;
}

/**
 * A file library call (`/admin/data/file_manager/<library>`, `/member_data/...`), typed by its
 * action's declaration (`fileManagerCalls`); answers the envelope.
 */
export async function sendLibrary<B extends LibraryBody>(
  who: Caller,
  library: Library,
  body: B,
): Promise<Envelope<LibraryAnswer<B>>> {
  const root = who.area === 'admin' ? '/admin/data' : '/member_data';
  return (await post(who, `${root}/file_manager/${library}`, body)) as Envelope<LibraryAnswer<B>>;
}

/** `sendLibrary`, answering `data`; throws on any code but 0. */
export async function callLibrary<B extends LibraryBody>(
  who: Caller,
  library: Library,
  body: B,
): Promise<LibraryAnswer<B>> {
  const answer = await sendLibrary(who, library, body);
  if (answer.code !== 0) throw new Error(`${library} ${body.action}: ${answer.msg}`);
  return answer.data;
}

/**
 * One chunk of an upload into the file library (SPEC 7.2): a multipart form of the chunk's text
 * fields, typed by the `chunk` declaration, and its bytes in the `file` part; answers `data`.
 */
export async function sendChunk(
  who: Caller,
  library: Library,
  fields: RequestOf<FileManagerCalls['chunk']>,
  bytes: Uint8Array,
): Promise<AnswerOf<FileManagerCalls['chunk']>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(bytes)]), fields.name);
  const root = who.area === 'admin' ? '/admin/data' : '/member_data';
  const answer = (await post(who, `${root}/file_manager/${library}`, form)) as Envelope<
    AnswerOf<FileManagerCalls['chunk']>
  >;
  if (answer.code !== 0) throw new Error(`${library} chunk: ${answer.msg}`);
  return answer.data;
}

/** Signs `account` in through the area's login call; the caller holding its token. */
export async function signedIn<A extends AreaName>(
  base: string,
  area: A,
  account: { username: string; password: string },
): Promise<SignedIn<A>> {
  // `auth/login` is declared alike in both tables; the area picks the address.
  const who = { area, base } as Caller as Caller<'member'>;
  const { token } = await call(who, 'auth/login', account);
  return { area, base, token };
}

/** The first admin signed in through the API. */
export function adminAuth(atrium: { url: string; adminPassword: string }) {
  return signedIn(atrium.url, 'admin', { username: 'admin', password: atrium.adminPassword });
}

/** A provider at the scripted model's address and one model of it, through the admin API. */
export async function addModel(
  admin: Caller<'admin'>,
  provider: { name: string; baseUrl: string; apiKey: string },
  model: { name: string; title: string; vision?: boolean },
) {
  const saved = await call(admin, 'aigc/provider/save', { id: 0, ...provider });
  return call(admin, 'aigc/model/save', { id: 0, providerId: saved.id, ...model });
}

/** The admin signed in on `page`, calling as the app does (token and XSRF from its cookies). */
export function adminIn(page: Page): Caller<'admin'> {
  return { area: 'admin', page };
}
