import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { Code } from '@atrium/shared/codes';
import { unavailableData, type Outage } from '@atrium/shared/outage';
import { catalogue, languageHeader } from '@atrium/shared/messages/catalogue';
import { setLanguage } from './i18n';
import { request, fetchData, ApiError, callHeaders, failureText } from './api';
import { readCookie, writeCookie, removeCookie } from './cookies';
import { useApiStore, notLoggedInProcessor } from '@/stores/api-store';
import { useUserStore } from '@/stores/user-store';
import { sendJson, startLocalServer, type LocalServer } from '@/test-utils/local-server';
import { renderWithProviders } from '@/test-utils/render';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((_req, res) => sendJson(res, { code: 0, msg: '', data: null }));
});
afterAll(() => server.close());

beforeEach(() => {
  setLanguage('en');
  server.requests.length = 0;
  useApiStore.setState({ codeProcessors: [notLoggedInProcessor] });
  useApiStore.getState().configure({ baseUrl: server.url, tokenKey: 'api-token' });
  removeCookie('api-token');
  removeCookie('XSRF-TOKEN');
  window.location.hash = '';
  renderWithProviders(<main />);
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('request conventions', () => {
  it('POSTs JSON to {baseUrl}api/{path} with is-ajax, the token and the XSRF echo', async () => {
    writeCookie('api-token', 'tok-123', 60_000);
    document.cookie = 'XSRF-TOKEN=xsrf-abc; path=/';
    const login = { username: 'ann', password: 'pass-1234' };
    const result = await request('member', 'auth/login', login, { query: { page: 2 } });
    expect(result.code).toBe(0);
    const seen = server.requests[0];
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/api/auth/login?page=2');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['is-ajax']).toBe('true');
    expect(seen?.headers['api-token']).toBe('tok-123');
    expect(seen?.headers['x-xsrf-token']).toBe('xsrf-abc');
    expect(seen?.headers[languageHeader]).toBe('en');
    expect(JSON.parse(seen?.body ?? '')).toEqual(login);
  });

  it("names the page's language on every call, as it is when the call goes", async () => {
    setLanguage('zh-CN');
    await request('member', 'aigc/chat_room/all', {});
    setLanguage('en');
    await request('member', 'aigc/chat_room/all', {});
    expect(server.requests.map((seen) => seen.headers[languageHeader])).toEqual(['zh-CN', 'en']);
    // The upload button's calls and the chat stream send these same headers.
    expect(callHeaders()[languageHeader]).toBe('en');
  });

  it('sends neither header when there is no token or XSRF cookie', async () => {
    await request('member', 'aigc/chat_room/all', {});
    expect(server.requests[0]?.headers['api-token']).toBeUndefined();
    expect(server.requests[0]?.headers['x-xsrf-token']).toBeUndefined();
  });

  it('replaces the token when a response carries the header, and keeps it in the cookie', async () => {
    writeCookie('api-token', 'old', 60_000);
    server.handle((_req, res) =>
      sendJson(res, { code: 0, msg: '', data: 1 }, { 'api-token': 'fresh-456' }),
    );
    await request('member', 'aigc/chat_room/all', {});
    expect(readCookie('api-token')).toBe('fresh-456');
    expect(useApiStore.getState().token).toBe('fresh-456');
    await request('member', 'aigc/chat_room/all', {});
    expect(server.requests[1]?.headers['api-token']).toBe('fresh-456');
  });

  it('uses the header named by tokenKey (admin area)', async () => {
    useApiStore
      .getState()
      .configure({ baseUrl: `${server.url}admin/`, tokenKey: 'admin-api-token' });
    writeCookie('admin-api-token', 'adm', 60_000);
    server.handle((_req, res) => sendJson(res, { code: 0, msg: '', data: 1 }));
    await request('admin', 'app/config', {});
    expect(server.requests[0]?.url).toBe('/admin/api/app/config');
    expect(server.requests[0]?.headers['admin-api-token']).toBe('adm');
    removeCookie('admin-api-token');
  });
});

describe('answers', () => {
  it('shows the success msg as a toast', async () => {
    server.handle((_req, res) => sendJson(res, { code: 0, msg: 'Saved', data: { records: [] } }));
    const result = await request('member', 'aigc/chat_room/all', {});
    expect(result.data).toEqual({ records: [] });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
  });

  it('shows a failure msg as an error toast when nothing handles it', async () => {
    server.handle((_req, res) => sendJson(res, { code: -1, msg: 'Name is taken', data: null }));
    const result = await request('member', 'aigc/chat_room/all', {});
    expect(result).toEqual({ code: -1, msg: 'Name is taken', data: null });
    expect(await screen.findByText('Name is taken')).toBeInTheDocument();
  });

  it('lets the failure handler take the failure instead of the toast', async () => {
    server.handle((_req, res) => sendJson(res, { code: -1, msg: 'Handled here', data: null }));
    const onFailure = vi.fn(() => true);
    await request('member', 'aigc/chat_room/all', {}, { onFailure });
    expect(onFailure).toHaveBeenCalledWith({ code: -1, msg: 'Handled here', data: null });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Handled here')).not.toBeInTheDocument();
  });

  it('still toasts when the failure handler returns nothing', async () => {
    server.handle((_req, res) => sendJson(res, { code: -1, msg: 'Also toasted', data: null }));
    await request('member', 'aigc/chat_room/all', {}, { onFailure: () => undefined });
    expect(await screen.findByText('Also toasted')).toBeInTheDocument();
  });

  it('runs a registered code processor for its code, instead of the failure handler', async () => {
    server.handle((_req, res) => sendJson(res, { code: 1004, msg: 'Slow down', data: null }));
    const processor = vi.fn();
    const remove = useApiStore.getState().addCodeProcessor({ code: 1004, callback: processor });
    const onFailure = vi.fn();
    await request('member', 'aigc/chat_room/all', {}, { onFailure });
    expect(processor).toHaveBeenCalledWith({ code: 1004, msg: 'Slow down', data: null });
    expect(onFailure).not.toHaveBeenCalled();
    remove();
    await request('member', 'aigc/chat_room/all', {}, { onFailure });
    expect(onFailure).toHaveBeenCalledTimes(1);
  });

  it('treats an answer that is not an object as "Request failed(2)"', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<h1>proxy error</h1>');
    });
    const result = await request('member', 'aigc/chat_room/all', {});
    expect(result).toEqual({
      code: -1,
      msg: 'Request failed(2): <h1>proxy error</h1>',
      data: null,
    });
    expect(await screen.findByText('Request failed(2): <h1>proxy error</h1>')).toBeInTheDocument();
  });

  it('treats JSON that is not an envelope as "Request failed(2)"', async () => {
    server.handle((_req, res) => sendJson(res, [1, 2]));
    expect((await request('member', 'aigc/chat_room/all', {})).msg).toBe(
      'Request failed(2): [1,2]',
    );
  });

  it('reports HTTP 404 as "Request failed: address does not exist"', async () => {
    server.handle((_req, res) => {
      res.writeHead(404);
      res.end('nope');
    });
    const result = await request('member', 'aigc/chat_room/all', {});
    expect(result).toEqual({ code: -1, msg: 'Request failed: address does not exist', data: null });
    expect(await screen.findByText('Request failed: address does not exist')).toBeInTheDocument();
  });

  it('reports another HTTP failure as "Request failed(1)"', async () => {
    server.handle((_req, res) => {
      res.writeHead(500, 'Internal Server Error');
      res.end('{"code":-1,"msg":"boom"}');
    });
    expect((await request('member', 'aigc/chat_room/all', {})).msg).toBe(
      'Request failed(1): HTTP 500 Internal Server Error',
    );
  });

  it('reports a network error as "Request failed(1)"', async () => {
    const dead = await startLocalServer(() => undefined);
    await dead.close();
    useApiStore.getState().configure({ baseUrl: dead.url, tokenKey: 'api-token' });
    const result = await request('member', 'aigc/chat_room/all', {});
    expect(result.code).toBe(-1);
    expect(result.msg).toMatch(/^Request failed\(1\): .+/);
    expect(await screen.findByText(result.msg)).toBeInTheDocument();
    setLanguage('zh-CN');
    const zh = await request('member', 'aigc/chat_room/all', {}, { errorToast: false });
    // Not the browser's English ("Failed to fetch") in the Chinese page.
    expect(zh.msg).toMatch(/^请求失败\(1\)：[^A-Za-z]+$/);
  });

  it('gives up after the time-out with "Request failed(1)"', async () => {
    server.handle(() => undefined);
    const started = Date.now();
    const result = await request('member', 'aigc/chat_room/all', {}, { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toEqual({ code: -1, msg: 'Request failed(1): time-out after 0 s', data: null });
  });

  it('uses a 60 s time-out by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.handle(() => undefined);
    const pending = request('member', 'aigc/chat_room/all', {});
    await vi.advanceTimersByTimeAsync(59_000);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).msg).toBe('Request failed(1): time-out after 60 s');
  });

  it('shows the Chinese texts in the default language', async () => {
    setLanguage('zh-CN');
    server.handle((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    expect((await request('member', 'aigc/chat_room/all', {})).msg).toBe('请求失败：地址不存在');
  });
});

describe('not logged in (code 1000)', () => {
  it('drops the token and sends the user to the login page with the way back', async () => {
    writeCookie('api-token', 'dead', 60_000);
    useUserStore.getState().setUser({ id: 5, username: 'ann' });
    window.location.hash = '#/files/photos?page=2';
    server.handle((_req, res) => sendJson(res, { code: 1000, msg: 'not logined', data: null }));
    const onFailure = vi.fn();
    const result = await request('member', 'aigc/chat_room/all', {}, { onFailure });
    expect(result.code).toBe(1000);
    expect(window.location.hash).toBe(
      `#/login?redirect=${encodeURIComponent('/files/photos?page=2')}`,
    );
    expect(readCookie('api-token')).toBe('');
    expect(useUserStore.getState().user.id).toBe(0);
    expect(onFailure).not.toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('not logined')).not.toBeInTheDocument();
  });

  it('stays on the login page when already there', async () => {
    window.location.hash = '#/login?redirect=%2Fdashboard';
    server.handle((_req, res) => sendJson(res, { code: 1000, msg: 'not logined', data: null }));
    await request('member', 'aigc/chat_room/all', {});
    expect(window.location.hash).toBe('#/login?redirect=%2Fdashboard');
  });
});

describe('fetchData', () => {
  it('resolves with data on code 0 and rejects with ApiError otherwise', async () => {
    server.handle((_req, res) => sendJson(res, { code: 0, msg: '', data: { records: [] } }));
    await expect(fetchData('member', 'aigc/chat_room/all', {})).resolves.toEqual({ records: [] });
    server.handle((_req, res) => sendJson(res, { code: 1003, msg: 'No permission', data: null }));
    const error = await fetchData('member', 'aigc/chat_room/all', {}, { errorToast: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 1003, message: 'No permission' });
  });
});

describe('outage refusals (code 1005)', () => {
  const refusal = (outage: Outage) => ({
    code: Code.Unavailable,
    // The server's English words; the person reads the outage in their own language.
    msg: 'Something in English the web must not show as it is',
    data: unavailableData(outage),
  });

  it('shows each outage from its key in Chinese and in English, never the English msg', async () => {
    const texts = Object.fromEntries(
      (['storage', 'diskFull', 'database', 'redis'] as const).map((outage) => {
        const { 'zh-CN': zh, en } = catalogue[`unavailable.${outage}`];
        return [outage, [zh, en]];
      }),
    ) as Record<Outage, [string, string]>;
    expect(texts.storage[0]).toBe('存储暂时不可用：没有丢失任何内容，请重试');
    for (const [outage, [zh, en]] of Object.entries(texts) as [Outage, [string, string]][]) {
      server.handle((_req, res) => sendJson(res, refusal(outage)));
      setLanguage('zh-CN');
      await request('member', 'aigc/chat_room/all', {});
      expect(await screen.findByText(zh)).toBeInTheDocument();
      setLanguage('en');
      const error = await fetchData('member', 'aigc/chat_room/all', {}).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: Code.Unavailable, message: en });
      expect(await screen.findByText(en)).toBeInTheDocument();
    }
    expect(screen.queryByText(/Something in English/)).toBeNull();
  });
});

describe('refusals from the catalogue (issue 27)', () => {
  const refusal = {
    code: Code.Failure,
    // What the server wrote: the web renders the key, not these words.
    msg: 'words the server wrote',
    data: {
      error: 'validation.tooShort',
      params: { field: { key: 'field.username' }, min: 3 },
      field: 'username',
    },
  };

  it('renders a refusal from its key and parameters in Chinese and in English', async () => {
    server.handle((_req, res) => sendJson(res, refusal));
    setLanguage('zh-CN');
    const zh = await request('member', 'aigc/chat_room/all', {});
    expect(zh.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(zh.msg).toContain('用户名');
    expect(zh.msg).toContain('3');
    expect(await screen.findByText(zh.msg)).toBeInTheDocument();
    expect(zh.data).toEqual(refusal.data);

    setLanguage('en');
    const error = await fetchData('member', 'aigc/chat_room/all', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const en = (error as ApiError).message;
    expect(en).not.toMatch(/[\u4e00-\u9fff]/);
    expect(en).toMatch(/username/i);
    expect(en).toContain('3');
    expect(await screen.findByText(en)).toBeInTheDocument();
    expect(screen.queryByText('words the server wrote')).toBeNull();
  });

  it('passes the rendered text to the failure handler', async () => {
    server.handle((_req, res) =>
      sendJson(res, { code: 1003, msg: 'No permission', data: { error: 'http.noPermission' } }),
    );
    setLanguage('zh-CN');
    const onFailure = vi.fn(() => true);
    await request('member', 'aigc/chat_room/all', {}, { onFailure });
    expect(onFailure).toHaveBeenCalledWith(
      expect.objectContaining({ code: 1003, msg: catalogue['http.noPermission']['zh-CN'] }),
    );
  });

  it('shows msg as sent when data names no catalogue key', () => {
    setLanguage('zh-CN');
    expect(failureText({ code: -1, msg: 'as sent', data: { error: 'no.suchKey' } })).toBe(
      'as sent',
    );
    expect(failureText({ code: -1, msg: 'as sent', data: null })).toBe('as sent');
    expect(failureText({ code: -1, msg: 'as sent', data: [1] })).toBe('as sent');
  });

  it('shows a success msg as the server sent it', async () => {
    setLanguage('zh-CN');
    server.handle((_req, res) =>
      sendJson(res, { code: 0, msg: '保存成功', data: { records: [] } }),
    );
    await request('member', 'aigc/chat_room/all', {});
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
  });
});
