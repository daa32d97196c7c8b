import { adminMenu } from '@atrium/shared/menu';
import { filterMenu, type ShownMenuItem } from '@atrium/shared/rules';
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
  const server = await startLocalServer((req, res) => {
    const isAdmin = req.url.startsWith('/admin/');
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
      if (!isAdmin) return sendJson(res, { code: 0, msg: '', data: { ...base, user: signedIn ? member : { id: 0 } } });
      const rules = signedIn ? state.rules : [];
      return sendJson(res, {
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
        return sendJson(res, { code: -1, msg: '用户名或密码错误', data: null });
      }
      const fresh = `tok-${state.sessions.size + 1}`;
      state.sessions.add(fresh);
      return sendJson(
        res,
        { code: 0, msg: '', data: { user: isAdmin ? admin : member, token: fresh } },
        { [tokenKey]: fresh },
      );
    }
    if (path === '/api/auth/logout') {
      if (typeof token === 'string') state.sessions.delete(token);
      return sendJson(res, { code: 0, msg: '', data: null });
    }
    res.writeHead(404);
    res.end();
  });
  return { ...server, state, configCalls: () => configCalls };
}
