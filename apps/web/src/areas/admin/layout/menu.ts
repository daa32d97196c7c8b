import { filterMenu, type ShownMenuItem } from '@atrium/shared/rules';
import type { RedirectPair } from '@/components/permission-redirect';

/**
 * The menu the panel draws. The server already filtered it, and it is filtered again with the
 * rules this page holds, so a menu list older than the rules can never show more (SPEC 6).
 */
export function visibleMenu(
  menus: readonly ShownMenuItem[],
  rules: readonly string[],
): ShownMenuItem[] {
  return filterMenu(menus, rules);
}

/** The items that are pages (no children), in menu order. */
export function menuPages(menus: readonly ShownMenuItem[]): ShownMenuItem[] {
  return menus.flatMap((item) => (item.children.length > 0 ? menuPages(item.children) : [item]));
}

/** (rule, route) pairs for the route redirect helper: every page of the menu, in order. */
export function menuRedirectPairs(menus: readonly ShownMenuItem[]): RedirectPair[] {
  return menuPages(menus).map((item) => [item.rule ?? item.url, `/${item.url}`] as const);
}

/** The chain of urls from the top of the menu down to the item for `url` (for open submenus). */
export function menuTrail(menus: readonly ShownMenuItem[], url: string): string[] {
  for (const item of menus) {
    if (item.url === url) return [item.url];
    const below = menuTrail(item.children, url);
    if (below.length > 0) return [item.url, ...below];
  }
  return [];
}

/** The menu url that owns a route path: the longest menu url that is the path or its prefix. */
export function activeMenuUrl(
  menus: readonly ShownMenuItem[],
  pathname: string,
): string | undefined {
  const path = pathname.replace(/^\/+/, '');
  let best: string | undefined;
  const visit = (items: readonly ShownMenuItem[]) => {
    for (const item of items) {
      const owns = path === item.url || path.startsWith(`${item.url}/`);
      if (owns && (best === undefined || item.url.length > best.length)) best = item.url;
      visit(item.children);
    }
  };
  visit(menus);
  return best;
}
