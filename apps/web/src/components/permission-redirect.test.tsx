import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { usePermissionStore } from '@/stores/permission-store';
import { renderRoutes } from '@/test-utils/render';
import { firstPermittedRoute, PermissionRedirect, type RedirectPair } from './permission-redirect';

const pairs: RedirectPair[] = [
  ['dashboard', '/dashboard'],
  [['system/admin', 'system/admin/*'], '/system/admin'],
  ['member', '/member'],
];

const routes = [
  { path: '/', element: <PermissionRedirect pairs={pairs} fallback={<p>nothing for you</p>} /> },
  { path: '/dashboard', element: <p>dashboard page</p> },
  { path: '/system/admin', element: <p>admins page</p> },
  { path: '/member', element: <p>members page</p> },
];

beforeEach(() => usePermissionStore.getState().reset());
afterEach(cleanup);

describe('route redirect helper', () => {
  it('picks the first pair whose rule is held', () => {
    expect(firstPermittedRoute(pairs, ['member', 'system/*'])).toBe('/system/admin');
    expect(firstPermittedRoute(pairs, ['member'])).toBe('/member');
    expect(firstPermittedRoute(pairs, ['*'])).toBe('/dashboard');
    expect(firstPermittedRoute(pairs, ['aigc/*'])).toBeUndefined();
  });

  it('waits for the rules, then replaces the route with the first permitted one', async () => {
    const { router } = renderRoutes(routes, '/');
    expect(screen.queryByText(/page/)).not.toBeInTheDocument();
    act(() => usePermissionStore.getState().setRules(['member']));
    expect(await screen.findByText('members page')).toBeInTheDocument();
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the fallback when no rule is held', async () => {
    usePermissionStore.getState().setRules(['aigc/*']);
    renderRoutes(routes, '/');
    expect(await screen.findByText('nothing for you')).toBeInTheDocument();
  });
});
