import { useCallback, type CSSProperties, type MouseEvent, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { confirmDialog } from '@/lib/feedback';

/** A target starting with this navigates the whole page to the rest of the string. */
const fullPagePrefix = '[url]';

export interface LinkOptions {
  /** Replace the last segment of the current path instead of going under the prefix. */
  relative?: boolean;
  /** Ask this question first; navigate only on OK. */
  confirm?: string;
  /** Route prefix the target goes under (default "/"). */
  prefix?: string;
  replace?: boolean;
}

export type LinkTarget = { kind: 'page'; href: string } | { kind: 'route'; path: string };

function joinPath(base: string, target: string): string {
  const head = base.endsWith('/') ? base : `${base}/`;
  return `${head}${target.replace(/^\/+/, '')}`;
}

/** Where a link goes from `current` (SPEC 2.6). */
export function resolveLink(
  current: string,
  target: string,
  options: LinkOptions = {},
): LinkTarget {
  if (target.startsWith(fullPagePrefix)) {
    return { kind: 'page', href: target.slice(fullPagePrefix.length) };
  }
  if (options.relative) {
    const pathname = current.split('?')[0] ?? '/';
    const parent = pathname.slice(0, pathname.lastIndexOf('/') + 1) || '/';
    return { kind: 'route', path: joinPath(parent, target) };
  }
  return { kind: 'route', path: joinPath(options.prefix ?? '/', target) };
}

/** True when following the link would not move: same path (and same query, when it has one). */
function isCurrent(location: { pathname: string; search: string }, path: string): boolean {
  return path.includes('?')
    ? path === `${location.pathname}${location.search}`
    : path === location.pathname;
}

/** The link helper as a function: `linkTo('dashboard')`, `linkTo('edit', { relative: true })`. */
function useLinkTo(): (target: string, options?: LinkOptions) => Promise<void> {
  const navigate = useNavigate();
  const location = useLocation();
  const { pathname, search } = location;
  return useCallback(
    async (target, options = {}) => {
      const resolved = resolveLink(`${pathname}${search}`, target, options);
      if (resolved.kind === 'route' && isCurrent({ pathname, search }, resolved.path)) return;
      if (options.confirm && !(await confirmDialog(options.confirm))) return;
      if (resolved.kind === 'page') window.location.assign(resolved.href);
      else void navigate(resolved.path, { replace: options.replace });
    },
    [pathname, search, navigate],
  );
}

export interface LinkToProps extends LinkOptions {
  to: string;
  children: ReactNode;
  className?: string;
  style?: CSSProperties;
}

/** The link helper as an anchor: real href for open-in-new-tab, helper behaviour on click. */
export function LinkTo({ to, children, className, style, ...options }: LinkToProps) {
  const linkTo = useLinkTo();
  const location = useLocation();
  const resolved = resolveLink(`${location.pathname}${location.search}`, to, options);
  const href = resolved.kind === 'page' ? resolved.href : `#${resolved.path}`;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void linkTo(to, options);
  };
  return (
    <a href={href} className={className} style={style} onClick={onClick}>
      {children}
    </a>
  );
}
