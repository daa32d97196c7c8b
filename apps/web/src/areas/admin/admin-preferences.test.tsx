import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setUpFakeAdminAtrium } from '@/test-utils/admin-harness';
import { renderApp } from '@/test-utils/render';
import { adminRoutes } from './routes';

const fake = setUpFakeAdminAtrium();
const signIn = (rules: string[]) => fake.signIn(rules);
// The first visit to a lazily loaded page compiles it; give such waits room.
const slow = { timeout: 10_000 };

describe('admin app preferences', () => {
  it('switches to English and to dark mode, and remembers both', async () => {
    signIn(['*']);
    renderApp(adminRoutes, '/no/such/page');
    await screen.findByText('页面不存在', {}, slow);
    expect(
      within(screen.getByRole('navigation', { name: 'menu' })).getByText('仪表盘'),
    ).toBeInTheDocument();
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
