import { useMemo, useState } from 'react';
import { Menu } from 'antd';
import type { MenuProps } from 'antd';
import { Link, useLocation } from 'react-router';
import type { ShownMenuItem } from '@atrium/shared';
import { useT } from '@/lib/i18n';
import { usePanelStore } from '@/stores/panel-store';
import { usePermissionStore } from '@/stores/permission-store';
import { activeMenuUrl, menuTrail, visibleMenu } from './menu';
import { MenuIcon } from './menu-icon';

type MenuItems = NonNullable<MenuProps['items']>;

export interface AdminMenuProps {
  collapsed?: boolean;
  /** Called after a page entry is chosen (closes the drawer on small windows). */
  onNavigate?: () => void;
}

export function useVisibleMenu(): ShownMenuItem[] {
  const menus = usePanelStore((s) => s.menus);
  const rules = usePermissionStore((s) => s.rules);
  return useMemo(() => visibleMenu(menus, rules), [menus, rules]);
}

export function AdminMenu({ collapsed = false, onNavigate }: AdminMenuProps) {
  const { tText } = useT();
  const { pathname } = useLocation();
  const menu = useVisibleMenu();
  const active = activeMenuUrl(menu, pathname);
  const parents = active ? menuTrail(menu, active).slice(0, -1) : [];
  const [openKeys, setOpenKeys] = useState<string[]>(parents);
  const [openedFor, setOpenedFor] = useState(active);
  // Arriving at a page (also by redirect or link) opens its branch; the user may close it again.
  if (active !== openedFor) {
    setOpenedFor(active);
    setOpenKeys((keys) => [...new Set([...keys, ...parents])]);
  }

  const toItems = (items: readonly ShownMenuItem[], depth: number): MenuItems =>
    items.map((item) => {
      const icon = depth === 0 ? <MenuIcon name={item.icon} /> : undefined;
      const label = tText(item.title);
      if (item.children.length > 0) {
        return { key: item.url, icon, label, children: toItems(item.children, depth + 1) };
      }
      return {
        key: item.url,
        icon,
        label: (
          <Link to={`/${item.url}`} onClick={onNavigate}>
            {label}
          </Link>
        ),
      };
    });

  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      items={toItems(menu, 0)}
      selectedKeys={active ? [active] : []}
      openKeys={openKeys}
      onOpenChange={setOpenKeys}
      style={{ borderInlineEnd: 'none', background: 'transparent' }}
    />
  );
}
