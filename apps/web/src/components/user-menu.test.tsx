import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PublicUser } from '@atrium/shared';
import { setLanguage } from '@/lib/i18n';
import { installResizeObserver } from '@/test-utils/media';
import { renderWithProviders } from '@/test-utils/render';
import { UserMenu } from './user-menu';

const user = { id: 7, username: 'mia', nickname: 'Mia', avatar: '' } as PublicUser;

beforeAll(installResizeObserver);
beforeEach(() => setLanguage('zh-CN'));
afterEach(cleanup);

describe('UserMenu', () => {
  it('opens on a click and signs out from its menu', async () => {
    const onLogout = vi.fn();
    renderWithProviders(<UserMenu user={user} onLogout={onLogout} />);
    expect(screen.queryByRole('menuitem', { name: /退出登录/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mia' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /退出登录/ }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('opens at once when its button was clicked while the menu loaded, and closes as usual', async () => {
    const met = vi.fn();
    renderWithProviders(
      <UserMenu user={user} onLogout={() => undefined} openRequested onOpenRequestMet={met} />,
    );
    const signOut = await screen.findByRole('menuitem', { name: /退出登录/ });
    expect(signOut).toBeVisible();
    // The parent forgets the click, so a menu mounted later (after signing in again) starts shut.
    expect(met).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Mia' }));
    // Closing: its leave motion starts (jsdom never ends a motion, so it stays in the page).
    await vi.waitFor(() =>
      expect(signOut.closest('.ant-dropdown')?.className).toMatch(/-leave\b|-hidden\b/),
    );
  });

  it('opens when the request arrives after it was drawn (the click landed as the menu loaded)', async () => {
    const met = vi.fn();
    const view = renderWithProviders(<UserMenu user={user} onLogout={() => undefined} />);
    expect(screen.queryByRole('menuitem', { name: /退出登录/ })).not.toBeInTheDocument();
    view.rerender(
      <UserMenu user={user} onLogout={() => undefined} openRequested onOpenRequestMet={met} />,
    );
    expect(await screen.findByRole('menuitem', { name: /退出登录/ })).toBeVisible();
    expect(met).toHaveBeenCalledTimes(1);
    // The spent request (false again) leaves the menu open.
    view.rerender(<UserMenu user={user} onLogout={() => undefined} />);
    expect(screen.getByRole('menuitem', { name: /退出登录/ })).toBeVisible();
  });
});
