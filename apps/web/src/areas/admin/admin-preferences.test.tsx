import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { removeCookie } from '@/lib/cookies';
import { setLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';
import { usePreferencesStore } from '@/stores/preferences-store';
import { startFakeAtrium, type FakeAtrium } from '@/test-utils/fake-atrium';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderApp } from '@/test-utils/render';
import { resetStores, settleQueries } from '@/test-utils/reset-stores';
import { adminRoutes } from './routes';

let server: FakeAtrium;
// The first visit to a lazily loaded page compiles it; give such waits room.
const slow = { timeout: 10_000 };

beforeAll(async () => {
  installResizeObserver();
  server = await startFakeAtrium();
});
afterAll(() => server.close());

beforeEach(() => {
  resetStores();
  setLanguage('zh-CN');
  usePreferencesStore.getState().setTheme('light');
  setWindowWidth(1280);
  removeCookie('admin-api-token');
  server.state.sessions.clear();
  server.state.rules = ['*'];
  server.state.menus = undefined;
  useApiStore.getState().configure({ baseUrl: `${server.url}admin/`, tokenKey: 'admin-api-token' });
});
afterEach(async () => {
  await settleQueries();
  cleanup();
});

function signIn(rules: string[]) {
  server.state.rules = rules;
  server.state.sessions.add('good');
  useApiStore.getState().setToken('good');
}


describe('admin app preferences', () => {
  it('switches to English and to dark mode, and remembers both', async () => {
    signIn(['*']);
    renderApp(adminRoutes, '/no/such/page');
    await screen.findByText('页面不存在', {}, slow);
    expect(within(screen.getByRole('navigation', { name: 'menu' })).getByText('仪表盘')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '语言: English' }));
    expect(await screen.findByText('Page not found', {}, slow)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'menu' });
    expect(within(nav).getByText('Dashboard')).toBeInTheDocument();
    expect(localStorage.getItem('atrium.lang')).toBe('en');
    await userEvent.click(screen.getByRole('switch', { name: 'Dark mode' }));
    expect(localStorage.getItem('atrium.theme')).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });
});
