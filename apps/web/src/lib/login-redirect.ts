/**
 * Where "not logged in" sends the user (SPEC 6, code 1000): the area's own login route, carrying
 * the hash path to come back to.
 */
const loginPath = '/login';

/** The hash-router path of the current page ("/dashboard?x=1"), "/" when there is none. */
export function currentHashPath(): string {
  const path = window.location.hash.replace(/^#/, '');
  return path.startsWith('/') ? path : '/';
}

export function loginLocation(redirect: string): string {
  return redirect === '/' ? loginPath : `${loginPath}?redirect=${encodeURIComponent(redirect)}`;
}

function isOnLogin(path: string = currentHashPath()): boolean {
  return path === loginPath || path.startsWith(`${loginPath}?`) || path.startsWith(`${loginPath}/`);
}

/** Sends the browser to the login route of this area; no-op when already there. */
export function redirectToLogin(): void {
  const path = currentHashPath();
  if (isOnLogin(path)) return;
  window.location.hash = `#${loginLocation(path)}`;
}

/**
 * The in-app path to return to after login. Only in-app paths are accepted ("/x", never "//x" or
 * "https://..."), and never the login page itself.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return '/';
  return isOnLogin(value) ? '/' : value;
}
