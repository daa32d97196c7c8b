/**
 * Where "not logged in" sends the user (SPEC 6, code 1000): the area's own login route, carrying
 * the hash path to come back to. The sign-up and password-reset pages pass it along, so a visitor
 * who registers instead of signing in still lands where they were going.
 */
const loginPath = '/login';

/** The pages one passes through to sign in; never a place to come back to. */
export type AuthPath = '/login' | '/register' | '/forgot-password';
const authPaths: readonly AuthPath[] = ['/login', '/register', '/forgot-password'];

/** The hash-router path of the current page ("/dashboard?x=1"), "/" when there is none. */
export function currentHashPath(): string {
  const path = window.location.hash.replace(/^#/, '');
  return path.startsWith('/') ? path : '/';
}

/** `page` carrying the path to return to afterwards ("/register?redirect=%2F12"). */
export function authLocation(page: AuthPath, redirect: string): string {
  return redirect === '/' ? page : `${page}?redirect=${encodeURIComponent(redirect)}`;
}

export function loginLocation(redirect: string): string {
  return authLocation(loginPath, redirect);
}

const isOn = (page: string, path: string) =>
  path === page || path.startsWith(`${page}?`) || path.startsWith(`${page}/`);

function isOnLogin(path: string = currentHashPath()): boolean {
  return isOn(loginPath, path);
}

/** Sends the browser to the login route of this area; no-op when already there. */
export function redirectToLogin(): void {
  const path = currentHashPath();
  if (isOnLogin(path)) return;
  window.location.hash = `#${loginLocation(path)}`;
}

/**
 * The in-app path to return to after login. Only in-app paths are accepted ("/x", never "//x" or
 * "https://..."), and never the login, sign-up or reset pages themselves.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return '/';
  return authPaths.some((page) => isOn(page, value)) ? '/' : value;
}
