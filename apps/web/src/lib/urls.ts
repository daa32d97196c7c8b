/**
 * Address builders of SPEC 2.1. The roots come from the page (both apps are served by the same
 * server at fixed places), and a deployment can move static assets to a CDN by setting
 * `window.__ATRIUM_CDN__` before the app script runs.
 */

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface Roots {
  /** The member app: "/". */
  root: string;
  /** The admin app: "/admin/". */
  adminRoot: string;
  /** Where static assets live: the member root unless a CDN is configured. */
  cdn: string;
}

declare global {
  interface Window {
    __ATRIUM_CDN__?: string;
  }
}

function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}

function initialRoots(): Roots {
  const cdn = typeof window === 'undefined' ? undefined : window.__ATRIUM_CDN__;
  return { root: '/', adminRoot: '/admin/', cdn: withSlash(cdn ?? '/') };
}

let roots: Roots = initialRoots();

export function getRoots(): Roots {
  return roots;
}

export function setRoots(next: Partial<Roots>): void {
  roots = {
    root: withSlash(next.root ?? roots.root),
    adminRoot: withSlash(next.adminRoot ?? roots.adminRoot),
    cdn: withSlash(next.cdn ?? roots.cdn),
  };
}

/** "a=1&b=x" from a map (empty values dropped) or a ready string; "" when nothing remains. */
export function buildQuery(query?: Query | string): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query.replace(/^\?/, '');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, String(value));
  }
  return params.toString();
}

function join(base: string, path: string, query?: Query | string): string {
  const qs = buildQuery(query);
  const url = `${base}${path.replace(/^\/+/, '')}`;
  return qs ? `${url}?${qs}` : url;
}

/** {adminRoot}{path}?{query} */
export function adminUrl(path = '', query?: Query | string): string {
  return join(roots.adminRoot, path, query);
}

/** {root}{path}?{query} */
export function memberUrl(path = '', query?: Query | string): string {
  return join(roots.root, path, query);
}

/** {root}api/{path}?{query}; `root` is the API store's baseUrl ("/" member, "/admin/" admin). */
export function apiUrl(path: string, query?: Query | string, root: string = roots.root): string {
  return join(`${withSlash(root)}api/`, path, query);
}

/** {cdn}{path}; absolute addresses pass through unchanged. */
export function assetUrl(path: string): string {
  if (/^(https?:)?\/\//i.test(path) || path.startsWith('data:') || path.startsWith('blob:')) {
    return path;
  }
  return `${roots.cdn}${path.replace(/^\/+/, '')}`;
}

/** {cdn}vendor/Aigc/{path}: the parts of the AI-content module loaded on demand. */
export function aigcVendorUrl(path: string): string {
  return assetUrl(`vendor/Aigc/${path.replace(/^\/+/, '')}`);
}
