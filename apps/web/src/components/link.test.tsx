import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { setLanguage } from '@/lib/i18n';
import { renderRoutes } from '@/test-utils/render';
import { LinkTo, resolveLink } from './link';

function Where() {
  const location = useLocation();
  return <output aria-label="where">{`${location.pathname}${location.search}`}</output>;
}

beforeEach(() => setLanguage('zh-CN'));
afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
});

describe('resolveLink (SPEC 2.6)', () => {
  it('goes under the route prefix', () => {
    expect(resolveLink('/a/b', 'system/role')).toEqual({ kind: 'route', path: '/system/role' });
    expect(resolveLink('/a/b', '/x', { prefix: '/aigc' })).toEqual({
      kind: 'route',
      path: '/aigc/x',
    });
  });

  it('replaces the last segment with the relative option', () => {
    expect(resolveLink('/system/role/list?p=2', 'edit', { relative: true })).toEqual({
      kind: 'route',
      path: '/system/role/edit',
    });
    expect(resolveLink('/', 'x', { relative: true })).toEqual({ kind: 'route', path: '/x' });
  });

  it('turns "[url]..." into a full-page navigation', () => {
    expect(resolveLink('/a', '[url]https://example.test/docs')).toEqual({
      kind: 'page',
      href: 'https://example.test/docs',
    });
  });
});

describe('LinkTo', () => {
  const page = (element: React.ReactNode) => [
    {
      path: '*',
      element: (
        <>
          {element}
          <Where />
        </>
      ),
    },
  ];

  it('navigates in the app on click', async () => {
    renderRoutes(page(<LinkTo to="system/role">Roles</LinkTo>), '/dashboard');
    expect(screen.getByRole('link', { name: 'Roles' })).toHaveAttribute('href', '#/system/role');
    await userEvent.click(screen.getByRole('link', { name: 'Roles' }));
    expect(screen.getByLabelText('where')).toHaveTextContent('/system/role');
  });

  it('asks first when given a message, and stays on cancel', async () => {
    renderRoutes(
      page(
        <LinkTo to="edit" relative confirm="放弃修改？">
          Edit
        </LinkTo>,
      ),
      '/system/role/list',
    );
    await userEvent.click(screen.getByRole('link', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: '提示' });
    expect(dialog).toHaveTextContent('放弃修改？');
    await userEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    expect(screen.getByLabelText('where')).toHaveTextContent('/system/role/list');

    await userEvent.click(screen.getByRole('link', { name: 'Edit' }));
    const buttons = await screen.findAllByRole('button', { name: /确\s*定/ });
    await userEvent.click(buttons[buttons.length - 1] as HTMLElement);
    expect(screen.getByLabelText('where')).toHaveTextContent('/system/role/edit');
  });

  it('does nothing when already on the target, not even ask', async () => {
    renderRoutes(
      page(
        <LinkTo to="dashboard" confirm="Sure?">
          Here
        </LinkTo>,
      ),
      '/dashboard',
    );
    await userEvent.click(screen.getByRole('link', { name: 'Here' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByLabelText('where')).toHaveTextContent('/dashboard');
  });

  it('leaves the app for "[url]" targets', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderRoutes(page(<LinkTo to="[url]https://example.test/help">Help</LinkTo>), '/dashboard');
    expect(screen.getByRole('link', { name: 'Help' })).toHaveAttribute(
      'href',
      'https://example.test/help',
    );
    await userEvent.click(screen.getByRole('link', { name: 'Help' }));
    expect(assign).toHaveBeenCalledWith('https://example.test/help');
  });
});
