/**
 * Where a stored secret may go (DESIGN 7). A provider key, an SMTP password or a webhook secret
 * was entered for one address; sending it to another would hand it to whoever runs that one, so
 * it never follows a changed address. The server refuses a save or a test that would do so, and
 * the admin forms use the same comparison to ask for the secret again before anything is sent.
 */

/**
 * A URL as a destination. Spelling that cannot change where a request goes does not count: the
 * case of scheme and host, a default port written out, trailing slashes of the path. Anything
 * else does (scheme, user info, host, port, path, query, even a fragment: a client that appends
 * paths to a base URL turns it into a different path). Text that is no URL stays as typed.
 */
export function urlAddress(value: string): string {
  const text = value.trim();
  if (!URL.canParse(text)) return text;
  const url = new URL(text);
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url.href;
}

export function sameUrlAddress(a: string, b: string): boolean {
  return urlAddress(a) === urlAddress(b);
}

export interface SmtpAddress {
  host: string;
  port: number;
  security: string;
  user: string;
}

/**
 * An SMTP password belongs to one account on one server, reached one way: a password typed for
 * an encrypted connection must not go out in clear because the security mode was switched off.
 */
export function sameSmtpAddress(a: SmtpAddress, b: SmtpAddress): boolean {
  const key = (s: SmtpAddress) =>
    JSON.stringify([s.host.trim().toLowerCase().replace(/\.$/, ''), s.port, s.security, s.user]);
  return key(a) === key(b);
}
