import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { removeCookie } from '@/lib/cookies';
import { setLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderApp } from '@/test-utils/render';
import { resetStores, settleQueries } from '@/test-utils/reset-stores';
import { memberRoutes } from './routes';

/**
 * Sign-up as a person goes through it (issue 28 point 7): the captcha is answered once, to get the
 * code, and that request is where a taken username is said; a failed sign-up asks for no captcha;
 * and the page a sign-in was for is where the new member lands.
 */

const CODE = '123456';
const TAKEN = 'taken_name';
const image =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let server: LocalServer;
let token = '';
const slow = { timeout: 10_000 };
const user = userEvent.setup({ delay: null });

const bodiesOf = (path: string) =>
  server.requests
    .filter((r) => r.url === `/api/${path}`)
    .map((r) => JSON.parse(r.body) as Record<string, unknown>);

beforeAll(async () => {
  installResizeObserver();
  server = await startLocalServer((req, res) => {
    const body = (req.body ? JSON.parse(req.body) : {}) as Record<string, string>;
    const signedIn = token !== '' && req.headers['api-token'] === token;
    switch (req.url) {
      case '/api/app/config':
        return sendJson(res, {
          code: 0,
          msg: '',
          data: {
            config: { siteName: 'Lumen', version: '1.0.0' },
            hashPC: 'v1',
            hashLazyValue: {},
            user: signedIn ? { id: 9, username: 'fresh_name', nickname: 'fresh_name' } : { id: 0 },
          },
        });
      case '/api/captcha/image':
        return sendJson(res, { code: 0, msg: '', data: { image } });
      case '/api/verify/send':
        if (body.username === TAKEN) {
          return sendJson(res, {
            code: -1,
            msg: `用户名“${TAKEN}”已被占用`,
            data: {
              error: 'account.usernameTaken',
              field: 'username',
              params: { field: { key: 'field.username' }, username: TAKEN },
            },
          });
        }
        return sendJson(res, { code: 0, msg: '验证码已发送', data: { wait: 60 } });
      case '/api/auth/register':
        if (body.code !== CODE) {
          return sendJson(res, {
            code: -1,
            msg: '验证码错误，还可尝试 4 次',
            data: {
              error: 'account.codeWrong',
              field: 'code',
              params: { field: { key: 'field.code' }, left: 4 },
            },
          });
        }
        token = 'tok-new';
        return sendJson(
          res,
          {
            code: 0,
            msg: '',
            data: { user: { id: 9, username: 'fresh_name', nickname: 'fresh_name' }, token },
          },
          { 'api-token': token },
        );
      default:
        res.writeHead(404);
        res.end();
    }
  });
});
afterAll(() => server.close());

beforeEach(() => {
  resetStores();
  setLanguage('zh-CN');
  setWindowWidth(1280);
  removeCookie('api-token');
  token = '';
  server.requests.length = 0;
  useApiStore.getState().configure({ baseUrl: server.url, tokenKey: 'api-token' });
});
afterEach(async () => {
  await settleQueries();
  cleanup();
});

const field = (label: string) => screen.getByLabelText(label, { exact: true });
/** Types by pasting: typing re-renders the form once per character, seconds under jsdom. */
async function fill(label: string, text: string) {
  await user.clear(field(label));
  await user.paste(text);
}
const fieldError = (text: string) =>
  screen.findByText(text, { selector: '.ant-form-item-explain-error' }, slow);

describe('sign-up', { timeout: 60_000 }, () => {
  it('asks the captcha once, says a taken name at the code request, and lands on the page the sign-in was for', async () => {
    const { router } = renderApp(memberRoutes, '/register?redirect=%2Fshare%2Fabc');
    await screen.findByLabelText('用户名', { exact: true }, slow);
    await fill('用户名', TAKEN);
    await fill('邮箱或手机号', 'new@example.com');
    await fill('图形验证码', 'ABCD');
    expect(screen.getByText('仅在获取验证码时需要填写')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '点击获取' }));

    // The name is refused beside its field, before anything else is filled in.
    expect(await fieldError(`用户名“${TAKEN}”已被占用`)).toBeInTheDocument();
    expect(bodiesOf('verify/send')).toEqual([
      { target: 'new@example.com', captcha: 'ABCD', username: TAKEN },
    ]);
    // That answer used the captcha up: the field is empty for the next one.
    expect(field('图形验证码')).toHaveValue('');

    await fill('用户名', 'fresh_name');
    await fill('图形验证码', 'EFGH');
    await user.click(screen.getByRole('button', { name: '点击获取' }));
    expect(await screen.findByRole('button', { name: /^\d+s$/ }, slow)).toBeDisabled();
    expect(bodiesOf('verify/send')[1]).toEqual({
      target: 'new@example.com',
      captcha: 'EFGH',
      username: 'fresh_name',
    });

    // A wrong code: refused by the server, and no captcha is asked for again.
    await fill('验证码', '000000');
    await fill('密码', 'first pass 1');
    await fill('确认密码', 'first pass 1');
    await user.click(screen.getByRole('button', { name: /注\s*册/ }));
    expect(await screen.findByText('验证码错误，还可尝试 4 次', {}, slow)).toBeInTheDocument();
    expect(screen.queryByText('请输入图形验证码')).not.toBeInTheDocument();

    await fill('验证码', CODE);
    await user.click(screen.getByRole('button', { name: /注\s*册/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/share/abc'), slow);
    const registered = bodiesOf('auth/register');
    expect(registered).toHaveLength(2);
    for (const body of registered) expect(body).not.toHaveProperty('captcha');
    expect(registered[1]).toEqual({
      username: 'fresh_name',
      target: 'new@example.com',
      code: CODE,
      password: 'first pass 1',
    });
    expect(screen.queryByText('请输入图形验证码')).not.toBeInTheDocument();
  });

  it('carries the page to return to from sign-in to sign-up and back', async () => {
    const { router } = renderApp(memberRoutes, '/login?redirect=%2Fshare%2Fabc');
    const register = await screen.findByRole('link', { name: '立即注册' }, slow);
    expect(register).toHaveAttribute('href', '/register?redirect=%2Fshare%2Fabc');
    await user.click(register);
    const login = await screen.findByRole('link', { name: '去登录' }, slow);
    expect(router.state.location.search).toBe('?redirect=%2Fshare%2Fabc');
    expect(login).toHaveAttribute('href', '/login?redirect=%2Fshare%2Fabc');
    await user.click(login);
    const forgot = await screen.findByRole('link', { name: '忘记密码？' }, slow);
    expect(forgot).toHaveAttribute('href', '/forgot-password?redirect=%2Fshare%2Fabc');
  });
});
