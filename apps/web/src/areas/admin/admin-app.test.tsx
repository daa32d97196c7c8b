import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { filterMenu } from '@atrium/shared/rules';
import { adminMenu } from '@atrium/shared/menu';
import { useApiStore } from '@/stores/api-store';
import { setUpFakeAdminAtrium } from '@/test-utils/admin-harness';
import { setWindowWidth } from '@/test-utils/media';
import { renderApp } from '@/test-utils/render';
import { adminRoutes } from './routes';

const fake = setUpFakeAdminAtrium();
const signIn = (rules: string[]) => fake.signIn(rules);
// The first visit to a lazily loaded page compiles it; give such waits room.
const slow = { timeout: 10_000 };

const path = (router: { state: { location: { pathname: string; search: string } } }) =>
  `${router.state.location.pathname}${router.state.location.search}`;

describe('admin app', () => {
  it('sends a visitor to the login page and back to where they were after signing in', async () => {
    const { router } = renderApp(adminRoutes, '/no/such/page?x=1');
    expect(
      await screen.findByRole('heading', { name: 'Atrium 管理后台' }, slow),
    ).toBeInTheDocument();
    expect(path(router)).toBe('/login?redirect=%2Fno%2Fsuch%2Fpage%3Fx%3D1');

    await userEvent.type(screen.getByLabelText('用户名'), 'root');
    await userEvent.type(screen.getByLabelText('密码'), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));

    await waitFor(() => expect(path(router)).toBe('/no/such/page?x=1'), slow);
    expect(await screen.findByRole('button', { name: 'Root' }, slow)).toBeInTheDocument();
    expect(useApiStore.getState().token).toBe('tok-1');
  });

  it('shows a refused login in the form and stays', async () => {
    const { router } = renderApp(adminRoutes, '/login');
    await userEvent.type(await screen.findByLabelText('用户名'), 'root');
    await userEvent.type(screen.getByLabelText('密码'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('用户名或密码错误');
    expect(path(router)).toBe('/login');
  });

  it('shows only the menu items the rules allow, and their parents, even from a stale list', async () => {
    signIn(['system/role']);
    fake.state.menus = filterMenu(adminMenu, ['*']);
    renderApp(adminRoutes, '/system/role');
    const nav = await screen.findByRole('navigation', { name: 'menu' });
    await waitFor(() => expect(within(nav).getByText('系统管理')).toBeInTheDocument());
    expect(within(nav).getByRole('link', { name: '角色权限' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/system\/role$/),
    );
    for (const hidden of ['仪表盘', '资料库', '文件管理', '管理员', '会员管理']) {
      expect(within(nav).queryByText(hidden)).not.toBeInTheDocument();
    }
  });

  it('opens "#/" on the first page the rules allow', async () => {
    signIn(['member', 'system/role']);
    const { router } = renderApp(adminRoutes, '/');
    // The route's page loads on demand; the address changes once it has arrived.
    await waitFor(() => expect(path(router)).toBe('/system/role'), slow);
    expect(await screen.findByRole('heading', { name: '角色权限' }, slow)).toBeInTheDocument();
  });

  it('shows the not-found page inside the panel for an unknown address', async () => {
    signIn(['*']);
    renderApp(adminRoutes, '/no/such/page');
    expect(await screen.findByText('页面不存在', {}, slow)).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'menu' })).toBeInTheDocument();
  });

  it('says so when the rules allow no page at all', async () => {
    signIn([]);
    renderApp(adminRoutes, '/');
    expect(await screen.findByText('没有可访问的页面')).toBeInTheDocument();
  });

  it('shows the dashboard with the account, server version and the sections allowed', async () => {
    signIn(['dashboard', 'data/file_manager/view']);
    renderApp(adminRoutes, '/dashboard');
    expect(await screen.findByRole('heading', { name: '你好，Root' }, slow)).toBeInTheDocument();
    expect(screen.getByText('1.2.3')).toBeInTheDocument();
    const sections = screen.getByText('可访问的功能').closest('.ant-card') as HTMLElement;
    expect(within(sections).getByRole('link', { name: '文件管理' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/data\/file_manager$/),
    );
    expect(within(sections).queryByRole('link', { name: '管理员' })).not.toBeInTheDocument();
  });

  it('signs out from the user menu', async () => {
    signIn(['*']);
    const { router } = renderApp(adminRoutes, '/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Root' }));
    await userEvent.click(await screen.findByText('退出登录'));
    await waitFor(() => expect(path(router)).toBe('/login?redirect=%2Fdashboard'));
    expect(useApiStore.getState().token).toBe('');
    expect(fake.state.sessions.has('good')).toBe(false);
  });

  it('folds the menu into a drawer under 600 px', async () => {
    setWindowWidth(375);
    signIn(['*']);
    const { router } = renderApp(adminRoutes, '/no/such/page');
    await screen.findByText('页面不存在', {}, slow);
    expect(screen.queryByRole('navigation', { name: 'menu' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '打开菜单' }));
    const nav = await screen.findByRole('navigation', { name: 'menu' }, slow);
    await userEvent.click(within(nav).getByText('资料库'));
    await userEvent.click(await within(nav).findByRole('link', { name: '文件管理' }, slow));
    await waitFor(() => expect(router.state.location.pathname).toBe('/data/file_manager'), slow);
    // Choosing a page closes the drawer (antd drops its "open" state; the slide-out follows).
    await waitFor(() => expect(document.querySelector('.ant-drawer-open')).toBeNull());
  });
});
