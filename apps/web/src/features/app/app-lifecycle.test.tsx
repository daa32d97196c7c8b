import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { focusManager } from '@tanstack/react-query';
import { AppRoot } from '@/features/app';
import { on } from '@/lib/events';
import { setLanguage } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { useApiStore } from '@/stores/api-store';
import { useConfigStore } from '@/stores/config-store';
import { useLazyStore } from '@/stores/lazy-store';
import { useReloadStore } from '@/stores/reload-store';
import { useUserStore } from '@/stores/user-store';
import { startFakeAtrium, type FakeAtrium } from '@/test-utils/fake-atrium';
import { renderRoutes } from '@/test-utils/render';
import { resetStores, settleQueries } from '@/test-utils/reset-stores';
import { appConfigKey } from './api/get-app-config';
import { promptNewVersion } from './apply-app-config';

let server: FakeAtrium;

const routes = [
  {
    path: '/',
    element: <AppRoot area="member" />,
    children: [{ index: true, element: <p>home</p> }],
  },
];

beforeAll(async () => {
  server = await startFakeAtrium();
});
afterAll(() => server.close());

beforeEach(() => {
  resetStores();
  setLanguage('zh-CN');
  server.state.hashPC = 'v1';
  server.state.hashLazyValue = {};
  useApiStore.getState().configure({ baseUrl: server.url, tokenKey: 'api-token' });
});
afterEach(async () => {
  vi.useRealTimers();
  await settleQueries();
  cleanup();
});

/** Runs the 30 s refresh now, as the interval would. */
const refresh = () => act(() => queryClient.refetchQueries({ queryKey: appConfigKey }));

describe('app lifecycle (SPEC 4.1)', () => {
  it('loads the config before showing routes and announces the mount and the update', async () => {
    const mounted = vi.fn();
    const updated = vi.fn();
    const offMounted = on('EventAppMounted', mounted);
    const offUpdated = on('UpdateApp', updated);
    renderRoutes(routes, '/');
    expect(await screen.findByText('home')).toBeInTheDocument();
    expect(mounted).toHaveBeenCalledWith({ area: 'member' });
    expect(updated).toHaveBeenCalledWith({ area: 'member' });
    expect(useConfigStore.getState()).toMatchObject({ init: true, config: { siteName: 'Atrium' } });
    expect(useUserStore.getState()).toMatchObject({ init: true, user: { id: 0 } });
    offMounted();
    offUpdated();
  });

  it('refreshes every 30 s', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    renderRoutes(routes, '/');
    await screen.findByText('home');
    const before = server.configCalls();
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(server.configCalls()).toBe(before);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(server.configCalls()).toBe(before + 1));
  });

  it('offers a retry when the config cannot be loaded', async () => {
    useApiStore.getState().configure({ baseUrl: `${server.url}nowhere/`, tokenKey: 'api-token' });
    renderRoutes(routes, '/');
    expect(
      await screen.findByText('无法加载站点配置', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    useApiStore.getState().configure({ baseUrl: server.url, tokenKey: 'api-token' });
    await userEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByText('home')).toBeInTheDocument();
  });
});

describe('new-version prompt (SPEC 4.3)', () => {
  it('asks in Chinese when the pages hash changes, once, and again after cancel on the next change', async () => {
    renderRoutes(routes, '/');
    await screen.findByText('home');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    server.state.hashPC = 'v2';
    await refresh();
    const dialog = await screen.findByRole('dialog', { name: '提示' });
    expect(dialog).toHaveTextContent('页面代码已更新，是否立即刷新页面？');

    server.state.hashPC = 'v3';
    await refresh();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(useReloadStore.getState().hashUpdateDialog).toBe(false));
    // jsdom never finishes the closing animation, so the cancelled dialog may linger in the DOM.
    const lingering = screen.queryAllByRole('dialog').length;

    await refresh();
    // v3 arrived while the prompt was open; it is news now, so the prompt comes back once.
    await waitFor(() => expect(screen.getAllByRole('dialog')).toHaveLength(lingering + 1));
    await refresh();
    expect(screen.getAllByRole('dialog')).toHaveLength(lingering + 1);
  });

  it('does not ask when the hash stays the same', async () => {
    renderRoutes(routes, '/');
    await screen.findByText('home');
    await refresh();
    await refresh();
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('reloads the page on confirm', async () => {
    renderRoutes(routes, '/');
    await screen.findByText('home');
    const reload = vi.fn();
    const asked = promptNewVersion(reload);
    await userEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await asked;
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('lazy data refresh', () => {
  it('refreshes at once on returning to the tab (a hidden tab runs no 30 s tick)', async () => {
    renderRoutes(routes, '/');
    await screen.findByText('home');
    const before = server.configCalls();
    act(() => focusManager.setFocused(false));
    act(() => focusManager.setFocused(true));
    await waitFor(() => expect(server.configCalls()).toBe(before + 1));
    act(() => focusManager.setFocused(undefined));
  });

  it('refreshes a loaded set when the server reports a new hash for it', async () => {
    let version = 1;
    useLazyStore
      .getState()
      .register('Rooms', { queryKey: ['test-rooms'], queryFn: async () => `rooms-v${version}` });
    server.state.hashLazyValue = { Rooms: 'a' };
    renderRoutes(routes, '/');
    await screen.findByText('home');
    await useLazyStore.getState().load('Rooms');
    version = 2;
    await refresh();
    expect(useConfigStore.getState().lazy.Rooms).toBe('rooms-v1');
    server.state.hashLazyValue = { Rooms: 'b' };
    await refresh();
    await waitFor(() => expect(useConfigStore.getState().lazy.Rooms).toBe('rooms-v2'));
  });
});
