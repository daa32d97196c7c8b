import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { removeCookie } from '@/lib/cookies';
import { setLanguage } from '@/lib/i18n';
import { useApiStore } from '@/stores/api-store';
import { startFakeAtrium, type FakeAtrium } from '@/test-utils/fake-atrium';
import { installResizeObserver, setWindowWidth } from '@/test-utils/media';
import { renderApp } from '@/test-utils/render';
import { resetStores, settleQueries } from '@/test-utils/reset-stores';
import { memberRoutes } from './routes';

let server: FakeAtrium;
const slow = { timeout: 10_000 };

beforeAll(async () => {
  installResizeObserver();
  server = await startFakeAtrium({ siteName: 'Lumen' });
});
afterAll(() => server.close());

beforeEach(() => {
  resetStores();
  setLanguage('zh-CN');
  setWindowWidth(1280);
  removeCookie('api-token');
  server.state.sessions.clear();
  useApiStore.getState().configure({ baseUrl: server.url, tokenKey: 'api-token' });
});
afterEach(async () => {
  await settleQueries();
  cleanup();
});

describe('member app', () => {
  it('shows the site name and a way to sign in to a visitor', async () => {
    renderApp(memberRoutes, '/');
    expect(
      await screen.findByRole('heading', { level: 1, name: /Lumen/ }, slow),
    ).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Lumen' })).toHaveAttribute('href', '#/');
    expect(within(header).getByRole('button', { name: /登\s*录/ })).toBeInTheDocument();
  });

  it('signs a member in and brings them back where they were', async () => {
    const { router } = renderApp(memberRoutes, '/login?redirect=%2F');
    await userEvent.type(await screen.findByLabelText('用户名', {}, slow), 'mia');
    await userEvent.type(screen.getByLabelText('密码'), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    const header = await screen.findByRole('banner', {}, slow);
    expect(await within(header).findByRole('button', { name: 'Mia' }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(within(header).queryByRole('button', { name: /登\s*录/ })).not.toBeInTheDocument();
  });

  it('shows the not-found page for unknown addresses', async () => {
    renderApp(memberRoutes, '/a/b/c');
    expect(await screen.findByText('页面不存在', {}, slow)).toBeInTheDocument();
  });
});
