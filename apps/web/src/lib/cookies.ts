export function readCookie(name: string): string {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) {
      try {
        return decodeURIComponent(item.slice(prefix.length));
      } catch {
        return item.slice(prefix.length);
      }
    }
  }
  return '';
}

export function writeCookie(name: string, value: string, maxAgeMs: number): void {
  const maxAge = Math.max(0, Math.floor(maxAgeMs / 1000));
  const secure =
    typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  document.cookie =
    `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; ` +
    `SameSite=Lax${secure}`;
}

export function removeCookie(name: string): void {
  writeCookie(name, '', 0);
}
