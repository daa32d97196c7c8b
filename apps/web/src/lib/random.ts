import { Limits } from '@atrium/shared/limits';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Bytes at or above this are dropped so every character is equally likely (no modulo bias).
const unbiasedLimit = 256 - (256 % alphabet.length);

/** `length` letters and digits from crypto.getRandomValues. */
export function randomString(length: number = Limits.randomStringLength): string {
  let out = '';
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(Math.max(16, (length - out.length) * 2)));
    for (const byte of bytes) {
      if (byte >= unbiasedLimit) continue;
      out += alphabet.charAt(byte % alphabet.length);
      if (out.length === length) break;
    }
  }
  return out;
}

/** A 10-character id for DOM ids and client-side keys. */
export function randomId(): string {
  return randomString(Limits.randomIdLength);
}
