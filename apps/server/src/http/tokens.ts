import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh 256-bit session token, URL-safe. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored only as this hash, so a leaked database holds no usable token. */
export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** Compares two secrets in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}
