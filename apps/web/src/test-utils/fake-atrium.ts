import { adminMenu } from '@atrium/shared/menu';
import { filterMenu, type ShownMenuItem } from '@atrium/shared/rules';
import type { Call } from '@atrium/shared/contract/call';
import { adminTable, memberTable } from '@atrium/shared/contract/table';
import { sendJson, startLocalServer, type LocalServer } from './local-server';

export interface FakeAtriumState {
  siteName: string;
  hashPC: string;
  hashLazyValue: Record<string, string>;
  /** Rules of the signed-in admin. */
  rules: string[];
  /** Overrides the menu the server sends (to play a stale list); default: filtered adminMenu. */
  menus?: ShownMenuItem[];
  password: string;
  /** Tokens the server accepts. */
  sessions: Set<string>;
}

export interface FakeAtrium extends LocalServer {
  state: FakeAtriumState;
  /** app/config answers so far, per area. */
  configCalls: () => number;
}

const admin = { id: 1, username: 'root', nickname: 'Root' };
const member = { id: 7, username: 'mia', nickname: 'Mia' };

/**
 * A stand-in for the Atrium server's `app/config`, `auth/login` and `auth/logout` on a real local
 * port, speaking the same envelope and headers, with state a test can change between calls.
 */
export async function startFakeAtrium(initial: Partial<FakeAtriumState> = {}): Promise<FakeAtrium> {
  const state: FakeAtriumState = {
    siteName: 'Atrium',
    hashPC: 'v1',
    hashLazyValue: {},
    rules: ['*'],
    password: 'secret-pass',
    sessions: new Set(),
    ...initial,
  };
  let configCalls = 0;
  /** Requests and answers that strayed from their declarations; `close()` fails on any. */
  const drift: string[] = [];
  const check = (call: Call, side: 'request' | 'answer', value: unknown) => {
    const parsed = call[side].safeParse(value);
    if (!parsed.success) drift.push(`${call.path} ${side}: ${parsed.error.issues[0]?.message}`);
  };
  const server = await startLocalServer((req, rawRes) => {
    const isAdmin = req.url.startsWith('/admin/');
    const table: Record<string, Call> = isAdmin ? adminTable : memberTable;
    const call = table[req.url.replace(/^(\/admin)?\/api\//, '').split('?')[0] ?? ''];
    if (call) check(call, 'request', req.body === '' ? {} : JSON.parse(req.body));
    // Every success the fake sends is parsed against the call's declared answer.
    const res = {
      raw: rawRes,
      send(
        envelope: { code: number; msg: string; data: unknown },
        headers?: Record<string, string>,
      ) {
        if (call && envelope.code === 0) check(call, 'answer', envelope.data);
        sendJson(rawRes, envelope, headers);
      },
    };
    const tokenKey = isAdmin ? 'admin-api-token' : 'api-token';
    const token = req.headers[tokenKey];
    const signedIn = typeof token === 'string' && state.sessions.has(token);
    const path = req.url.replace(/^\/admin/, '').split('?')[0];
    const base = {
      config: { siteName: state.siteName, version: '1.2.3' },
      hashPC: state.hashPC,
      hashLazyValue: state.hashLazyValue,
    };
    if (path === '/api/app/config') {
      configCalls += 1;
      if (!isAdmin)
        return res.send({
          code: 0,
          msg: '',
          data: { ...base, user: signedIn ? member : { id: 0 } },
        });
      const rules = signedIn ? state.rules : [];
      return res.send({
        code: 0,
        msg: '',
        data: {
          ...base,
          user: signedIn ? admin : { id: 0 },
          rules,
          menus: signedIn ? (state.menus ?? filterMenu(adminMenu, rules)) : [],
        },
      });
    }
    if (path === '/api/auth/login') {
      const body = JSON.parse(req.body) as { username?: string; password?: string };
      if (body.password !== state.password) {
        return res.send({ code: -1, msg: '用户名或密码错误', data: null });
      }
      const fresh = `tok-${state.sessions.size + 1}`;
      state.sessions.add(fresh);
      return res.send(
        { code: 0, msg: '', data: { user: isAdmin ? admin : member, token: fresh } },
        { [tokenKey]: fresh },
      );
    }
    if (path === '/api/auth/logout') {
      if (typeof token === 'string') state.sessions.delete(token);
      return res.send({ code: 0, msg: '', data: null });
    }
    rawRes.writeHead(404);
    rawRes.end();
  });
  return {
    ...server,
    state,
    configCalls: () => configCalls,
    close: async () => {
      await server.close();
      if (drift.length > 0)
        throw new Error(`The fake strayed from its declarations:\n${drift.join('\n')}`);
    },
  };
}
