/** The XSRF pair a signed-in client sends: the cookie and the header holding the same value. */
export const XSRF = 'e2e-api-xsrf';

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** Whose call: the token and the header it goes in (`api-token`, `admin-api-token`). */
export type Auth = { header: string; token: string };

/**
 * A JSON API call as a client makes it (with a token: the token header plus the XSRF pair);
 * answers `data`, and throws with the path and the server's message on any other code than 0.
 */
export async function call<T>(base: string, path: string, body: unknown, auth?: Auth): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'is-ajax': 'true' };
  if (auth) {
    headers[auth.header] = auth.token;
    headers.cookie = `XSRF-TOKEN=${XSRF}`;
    headers['x-xsrf-token'] = XSRF;
  }
  const res = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await res.json()) as Envelope<T>;
  if (json.code !== 0) throw new Error(`${path}: ${json.msg}`);
  return json.data;
}

/** The first admin signed in through the API, as the token header its calls carry. */
export async function adminAuth(atrium: { url: string; adminPassword: string }): Promise<Auth> {
  const { token } = await call<{ token: string }>(atrium.url, 'admin/api/auth/login', {
    username: 'admin',
    password: atrium.adminPassword,
  });
  return { header: 'admin-api-token', token };
}

/** A provider at the scripted model's address and one model of it, through the admin API. */
export async function addModel(
  base: string,
  admin: Auth,
  provider: { name: string; baseUrl: string; apiKey: string },
  model: { name: string; title: string; vision?: boolean },
): Promise<{ id: number; providerId: number }> {
  const saved = await call<{ id: number }>(
    base,
    'admin/api/aigc/provider/save',
    { id: 0, ...provider },
    admin,
  );
  return call<{ id: number; providerId: number }>(
    base,
    'admin/api/aigc/model/save',
    { id: 0, providerId: saved.id, ...model },
    admin,
  );
}
