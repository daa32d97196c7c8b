import { describe, expect, it } from 'vitest';
import { adminMenu } from '@atrium/shared/menu';
import { filterMenu, type MenuItem } from '@atrium/shared/rules';
import { isMessageKey } from '@/lib/i18n';
import { activeMenuUrl, menuRedirectPairs, menuTrail, visibleMenu } from './menu';

const menu: MenuItem[] = [
  { title: 'menu.dashboard', url: 'dashboard', icon: 'dashboard' },
  {
    title: 'menu.library',
    url: 'data',
    children: [{ title: 'menu.files', url: 'data/file_manager', rule: 'data/file_manager/view' }],
  },
  {
    title: 'menu.system',
    url: 'system',
    children: [
      { title: 'menu.admins', url: 'system/admin' },
      { title: 'menu.roles', url: 'system/role' },
    ],
  },
];

describe('admin menu helpers', () => {
  const full = filterMenu(menu, ['*']);

  it('re-filters a menu list with the rules held now', () => {
    const shown = visibleMenu(full, ['system/role']);
    expect(shown.map((m) => m.url)).toEqual(['system']);
    expect(shown[0]?.children.map((m) => m.url)).toEqual(['system/role']);
  });

  it('lists the pages in menu order as redirect pairs, using each rule', () => {
    expect(menuRedirectPairs(full)).toEqual([
      ['dashboard', '/dashboard'],
      ['data/file_manager/view', '/data/file_manager'],
      ['system/admin', '/system/admin'],
      ['system/role', '/system/role'],
    ]);
  });

  it('finds the menu entry of a route and its parents', () => {
    expect(activeMenuUrl(full, '/system/role/edit')).toBe('system/role');
    expect(activeMenuUrl(full, '/data/file_manager')).toBe('data/file_manager');
    expect(activeMenuUrl(full, '/nowhere')).toBeUndefined();
    expect(menuTrail(full, 'system/role')).toEqual(['system', 'system/role']);
  });

  it('has a translation for every title of the real admin menu', () => {
    const titles = (items: readonly MenuItem[]): string[] =>
      items.flatMap((item) => [item.title, ...titles(item.children ?? [])]);
    expect(titles(adminMenu).filter((title) => !isMessageKey(title))).toEqual([]);
  });
});
